// `--expires-in 90d`, `--overlap 24h`: a whole number followed by s, m, h or d.

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** Seconds of a duration like "90d"; undefined when the text is not one. */
export function parseDuration(text: string): number | undefined {
  const match = /^([0-9]{1,9})([smhd])$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}
