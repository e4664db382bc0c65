/** The blocks of a markdown body that the outline walk reads (made by src/parse/outline/blocks.ts and scan.ts). */

/** One child block of a list item, as the walk reads it. */
export interface ItemChild {
  /** markdown-it token type of the child's opening (or only) token, e.g. `paragraph_open`. */
  type: string;
  /** 0-based body line range [line0, line1), or line0 -1 when markdown-it gave none. */
  line0: number;
  line1: number;
  /** A paragraph's raw inline text ('' for anything else). */
  text: string;
}

/**
 * One item of a top-level list. A 2 MiB list has 500,000: one object each (its first child block is
 * held in its own fields), no arrays for the usual item.
 */
export interface ListItem {
  /** 0-based body line of the item, when markdown-it gave one. */
  line0: number | null;
  /** Length of the item's marker (`-`, `1.`). */
  markerLength: number;
  /** The item's first child block (a bullet's lead text): its token type (null when the item is empty), first body line (-1: none given) and paragraph text. */
  leadType: string | null;
  leadLine0: number;
  leadText: string;
  /** The other child blocks (notes), if any. */
  rest: ItemChild[] | null;
}

/** A top-level (token level 0) block of the body. */
export interface Block {
  type: string;
  /** 0-based body line range [line0, line1). */
  line0: number;
  line1: number;
  /** Heading level 1..6, 0 for a non-heading. */
  hLevel: number;
  /** Heading text ('' for a non-heading). */
  text: string;
  /** The items of a list; null for anything else. */
  items: ListItem[] | null;
}
