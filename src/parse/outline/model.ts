/**
 * What the outline engine makes of a markdown body: the layer the outline rules read. Each finding
 * names the outline rule (its id without the kind's prefix: `h1`, `missing-section`, …), where, and
 * its message.
 */
import type { Pos } from '../../core/position.js';

export interface OutlineFinding {
  /** The outline rule, without the kind prefix. */
  rule: string;
  at: Pos;
  message: string;
}

export interface OutlineModel {
  /** The whole text of the first H1 (prefix included), null when there is none. */
  title: string | null;
  /** The parsed body (sections by key). */
  body: Record<string, unknown>;
  findings: OutlineFinding[];
}
