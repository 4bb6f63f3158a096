/**
 * Problem details (RFC 9457): one error class with a status that renders itself. `type` is a
 * relative URI to the documentation's section on that problem, so a person can follow it.
 */
export interface ProblemExtras {
  validCategories?: string[];
  validAssets?: string[];
  allow?: string[];
}

export class HttpProblem extends Error {
  override name = "HttpProblem";
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    readonly detail: string,
    readonly error: string,
    readonly extras: ProblemExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  body(instance: string): Record<string, unknown> {
    return { type: `/docs/#problem-${this.slug}`, title: this.title, status: this.status, detail: this.detail, error: this.error, instance, ...this.extras };
  }
}

export const PROBLEM_TYPE = "application/problem+json";
