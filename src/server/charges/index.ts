export { CHARGE_EVENT_TYPES, type ChargeEventType } from './events.js';
