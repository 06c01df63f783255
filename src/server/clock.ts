/** The service's notion of "now", injectable so tests can move time. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
