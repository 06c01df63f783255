import type { Bank } from './catalogue.js';

export function presentBank(bank: Bank) {
  return {
    compe: bank.compe,
    ispb: bank.ispb,
    name: bank.name,
    short_name: bank.shortName,
    pix_participant: bank.pixParticipant,
  };
}
