/** Who moved a ref and when, as a reflog line records it (git's committer identity). */
export interface ReflogIdentity {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes east of UTC subtracted from local time, isomorphic-git's sign convention (git's `+0100` is -60). */
  timezoneOffset?: number;
}

const ZERO_OID = '0'.repeat(40);

/** `+0000`, `-0530`: git's form of a time zone, from isomorphic-git's offset in minutes. */
function timezone(offsetMinutes: number): string {
  const east = -offsetMinutes;
  const sign = east < 0 ? '-' : '+';
  const minutes = Math.abs(east);
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * One reflog line as git writes it (refs/files-backend.c, `log_ref_write_fd`):
 * `<old> <new> <name> <<email>> <time> <zone>\t<message>\n`, a missing old value as forty zeros,
 * the message on one line (git keeps the first line of a commit message). Pure.
 */
export function reflogLine(old: string | null, next: string, who: ReflogIdentity, message: string): string {
  const oneLine = message.split('\n', 1)[0]!.trim();
  return `${old ?? ZERO_OID} ${next} ${who.name} <${who.email}> ${who.timestamp} ${timezone(who.timezoneOffset ?? 0)}\t${oneLine}\n`;
}
