/**
 * A bank statement as the matcher needs it, whatever its format (CODA or camt.053): the account,
 * and every booked movement with the bank's reference, amount in cents (negative for a debit),
 * the structured communication when the bank carries one, the free text and the counterparty.
 */
export interface ParsedStatement {
  readonly format: 'coda' | 'camt053';
  readonly account: string;
  readonly currency: string;
  /** Statement date (`YYYY-MM-DD`) or null when the file gives none. */
  readonly date: string | null;
  readonly movements: readonly ParsedMovement[];
}

export interface ParsedMovement {
  /** Unique per movement across imports of this account: a re-import is recognised by it. */
  readonly bankRef: string;
  readonly amountCents: number;
  readonly currency: string;
  readonly bookingDate: string | null;
  /** 12 digits when the bank marked the communication as structured (Belgian OGM-VCS). */
  readonly structured: string | null;
  readonly freeText: string;
  readonly counterpartyName: string;
  readonly counterpartyAccount: string;
}

/** A statement the parser refuses, with where (a line of a CODA file, an element of camt). */
export class StatementError extends Error {
  constructor(
    message: string,
    readonly where: string,
  ) {
    super(message);
    this.name = 'StatementError';
  }
}
