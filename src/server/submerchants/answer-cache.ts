/**
 * GET /v1/submerchants/:id's answers as this process last sent them (read-answer.ts), each with the version of the
 * stored answer it was built from and the request clocks it holds for. Never trusted alone: a read sends the
 * text only after the database confirmed the version, so a write on any instance is seen by the next read.
 * Bounded by the characters it holds; the least recently read answer goes first.
 */
export interface CachedAnswer {
  merchantId: string;
  version: number;
  /** The request clocks it holds for, as in `submerchant_answers` (ISO text, null for unbounded). */
  validFrom: string | null;
  staleAfter: string | null;
  /** The whole response body. */
  text: string;
}

/** Whether `answer` holds for the request clock `now` (ISO text). */
export const holdsFor = (answer: Pick<CachedAnswer, 'validFrom' | 'staleAfter'>, now: string): boolean =>
  (answer.validFrom === null || answer.validFrom <= now) &&
  (answer.staleAfter === null || answer.staleAfter > now);

export class AnswerCache {
  // A Map iterates in insertion order: a read moves its answer to the end, so the first is the least recent.
  private readonly answers = new Map<string, CachedAnswer>();
  private chars = 0;

  constructor(readonly maxChars: number) {}

  get(submerchantId: string): CachedAnswer | undefined {
    const answer = this.answers.get(submerchantId);
    if (answer) {
      this.answers.delete(submerchantId);
      this.answers.set(submerchantId, answer);
    }
    return answer;
  }

  set(submerchantId: string, answer: CachedAnswer): void {
    this.delete(submerchantId);
    if (answer.text.length > this.maxChars) return;
    this.answers.set(submerchantId, answer);
    this.chars += answer.text.length;
    for (const [oldest, { text }] of this.answers) {
      if (this.chars <= this.maxChars) break;
      this.answers.delete(oldest);
      this.chars -= text.length;
    }
  }

  delete(submerchantId: string): void {
    const answer = this.answers.get(submerchantId);
    if (!answer) return;
    this.answers.delete(submerchantId);
    this.chars -= answer.text.length;
  }

  /** The characters of text it holds (what bounds its memory: ~2 bytes each at most). */
  get size(): number {
    return this.chars;
  }
}
