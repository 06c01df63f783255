import { describe, expect, it } from 'vitest';
import { CNAE_TO_MCC, mccForCnae } from '../../../src/server/submerchants/mcc.js';
import {
  computeRequirements,
  effectiveDocumentStatus,
} from '../../../src/server/submerchants/requirements.js';

describe('CNAE → MCC table', () => {
  it('keys 7-digit CNAE subclasses to 4-digit MCCs', () => {
    expect(Object.keys(CNAE_TO_MCC).length).toBeGreaterThanOrEqual(80);
    for (const [cnae, { mcc, activity }] of Object.entries(CNAE_TO_MCC)) {
      expect(cnae).toMatch(/^\d{7}$/);
      expect(mcc).toMatch(/^\d{4}$/);
      expect(activity.length).toBeGreaterThan(3);
    }
  });

  it('reads formatted and unformatted codes alike; unknown codes resolve to null', () => {
    expect(mccForCnae('4711-3/02')).toBe('5411');
    expect(mccForCnae('4711302')).toBe('5411');
    expect(mccForCnae('5611-2/01')).toBe('5812');
    expect(mccForCnae('0111-3/01')).toBeNull();
  });
});

describe('requirements', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');
  const base = { entityType: 'pj', mcc: '5411', representatives: [], addressCount: 1, documents: [], now };

  it('treats a document as expired from the instant its expires_at is reached', () => {
    expect(effectiveDocumentStatus({ status: 'approved', expires_at: '2026-11-21T12:00:00.000Z' }, now)).toBe(
      'expired',
    );
    expect(effectiveDocumentStatus({ status: 'approved', expires_at: '2026-11-21T12:00:00.001Z' }, now)).toBe(
      'approved',
    );
    expect(effectiveDocumentStatus({ status: 'rejected', expires_at: '2020-01-01T00:00:00.000Z' }, now)).toBe(
      'rejected',
    );
  });

  it('asks a pj for partner documents per representative, a pf for its own four', () => {
    const representatives = [
      { id: 'r1', name: 'Ana', review_status: 'approved' },
      { id: 'r2', name: 'Bia', review_status: 'approved' },
    ];
    const company = computeRequirements({ ...base, representatives });
    expect(company.items.filter((i) => i.legal_representative_id === 'r1')).toHaveLength(4);
    expect(company.items.filter((i) => i.legal_representative_id === 'r2')).toHaveLength(4);
    expect(company.items).toHaveLength(3 + 8);
    const person = computeRequirements({ ...base, entityType: 'pf' });
    expect(person.items.map((i) => i.document_type)).toEqual([
      'front_id',
      'back_id',
      'selfie_with_id',
      'proof_of_residence',
    ]);
  });

  it('ignores documents of types the kind of submerchant does not need', () => {
    const person = computeRequirements({
      ...base,
      entityType: 'pf',
      documents: ['front_id', 'back_id', 'selfie_with_id', 'proof_of_residence', 'social_contract'].map(
        (type, index) => ({
          id: `d${index}`,
          type,
          legal_representative_id: null,
          status: type === 'social_contract' ? 'rejected' : 'pending',
          expires_at: null,
          rejection_reason: null,
        }),
      ),
    });
    expect(person.ready_for_review).toBe(true);
    expect(person.items).toEqual([]);
    // The pending ones await review; the rejected social_contract is not the person's concern.
    expect(person.pending_verification.map((item) => item.document_type)).toEqual([
      'front_id',
      'back_id',
      'selfie_with_id',
      'proof_of_residence',
    ]);
  });
});
