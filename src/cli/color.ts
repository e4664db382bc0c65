/**
 * Whether the stylish report on stdout gets colours, as chalk's and Node's users expect
 * (docs/decisions.md, "CLI manners"): `--color`/`--no-color` first, then `FORCE_COLOR` (`0` or `false`:
 * none; anything else, empty included: colours even through a pipe), then `NO_COLOR` (any value but
 * empty: none), then a terminal whose `TERM` is not `dumb`.
 */
export function wantsColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}
