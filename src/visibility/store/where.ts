/** Builds a dynamic WHERE clause with numbered parameters. */
export class Where {
  readonly params: unknown[] = [];
  private readonly parts: string[] = [];
  add(sql: (p: (v: unknown) => string) => string): this {
    this.parts.push(sql((v) => `$${this.params.push(v)}`));
    return this;
  }
  get sql(): string {
    return this.parts.join(' AND ');
  }
}
