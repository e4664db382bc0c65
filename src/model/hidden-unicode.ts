/**
 * Hidden characters: code points a reader never sees but an agent reads (Unicode tag characters,
 * bidirectional controls, zero-width and other default-ignorable characters). Which ones count, and
 * which uses of them are legitimate (emoji sequences, the joiners a script needs), is explained in
 * docs/reliability.md ("Round three (issue 25): hidden content"). The rule `hidden-unicode` reports them; every report and the
 * text of a failing document served over MCP show them as visible escapes (`\u{202E}`).
 *
 * Text almost never holds one, so the entry points are quick looks that say no at memory speed (at a
 * document's bytes, `bytesMayHide`; at a message or a path, `mayHide`); only a text that may hold one is
 * walked run by run.
 */
import { isAscii } from 'node:buffer';

/**
 * Every candidate: Unicode's Default_Ignorable_Code_Point (written out, so that the set does not move
 * with the Unicode version of the Node that runs docgate) plus the interlinear annotation characters.
 */
const CANDIDATE_CLASS =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFFB\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}';

/** The fast test: a text without a match holds nothing hidden. */
const CANDIDATE = new RegExp(`[${CANDIDATE_CLASS}]`, 'u');
/** Maximal runs of candidates (the unit a finding and its fix are about). */
const RUNS = new RegExp(`[${CANDIDATE_CLASS}]+`, 'gu');

/** Whether a text may hold a hidden character: false for almost every text, at the cost of one scan. */
export function mayHide(text: string): boolean {
  return CANDIDATE.test(text);
}

/**
 * Whether the UTF-8 sequence at `i` encodes a candidate: the candidates' encodings, by lead byte (a
 * lead byte never stands inside another character's sequence; test/hidden-unicode.test.ts checks this
 * against the class above for every code point).
 */
function candidateAt(b: Uint8Array, i: number): boolean {
  const b1 = b[i + 1];
  const b2 = b[i + 2] ?? 0;
  switch (b[i]) {
    case 0xc2:
      return b1 === 0xad;
    case 0xcd:
      return b1 === 0x8f;
    case 0xd8:
      return b1 === 0x9c;
    case 0xe1:
      return (b1 === 0x85 && (b2 === 0x9f || b2 === 0xa0)) || (b1 === 0x9e && (b2 === 0xb4 || b2 === 0xb5)) || (b1 === 0xa0 && b2 >= 0x8b && b2 <= 0x8f);
    case 0xe2:
      return (b1 === 0x80 && ((b2 >= 0x8b && b2 <= 0x8f) || (b2 >= 0xaa && b2 <= 0xae))) || (b1 === 0x81 && b2 >= 0xa0 && b2 <= 0xaf);
    case 0xe3:
      return b1 === 0x85 && b2 === 0xa4;
    case 0xef:
      return (
        (b1 === 0xb8 && b2 >= 0x80 && b2 <= 0x8f) || (b1 === 0xbb && b2 === 0xbf) || (b1 === 0xbe && b2 === 0xa0) || (b1 === 0xbf && b2 >= 0xb0 && b2 <= 0xbb)
      );
    case 0xf0: {
      const b3 = b[i + 3] ?? 0;
      return (b1 === 0x9b && b2 === 0xb2 && b3 >= 0xa0 && b3 <= 0xa3) || (b1 === 0x9d && b2 === 0x85 && b3 >= 0xb3 && b3 <= 0xba);
    }
    case 0xf3:
      return b1 === 0xa0;
    default:
      return false;
  }
}

function anyCandidate(b: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (b[k]! >= 0xc2 && candidateAt(b, k)) return true;
  return false;
}

/**
 * `mayHide` of the text that UTF-8 bytes decode to, looked up on the bytes. ASCII bytes (most
 * documents) take one vectorized check. Other bytes are read 16 at a time, and only a block with a
 * byte beyond ASCII is looked at byte by byte: a document with an em dash or a curly quote costs about
 * a tenth of a scan of its text, which V8 keeps in two bytes a character once it holds anything beyond
 * Latin-1 (docs/reliability.md has the figures).
 */
export function bytesMayHide(bytes: Uint8Array): boolean {
  if (isAscii(bytes)) return false;
  const n = bytes.length;
  // Whole 32-bit words need an aligned start; the bytes before it, and after the last block, one by one.
  const head = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  if (anyCandidate(bytes, 0, head)) return true;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset + head, (n - head) >> 2);
  const blocks = words.length & ~3;
  for (let w = 0; w < blocks; w += 4) {
    if (((words[w]! | words[w + 1]! | words[w + 2]! | words[w + 3]!) & 0x80808080) === 0) continue;
    const at = head + (w << 2);
    if (anyCandidate(bytes, at, at + 16)) return true;
  }
  return anyCandidate(bytes, head + (blocks << 2), n);
}

/** A run of hidden characters that is reported: string offsets [start, end) and its code points. */
export interface HiddenRun {
  start: number;
  end: number;
  codePoints: number[];
}

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const VS15 = 0xfe0e;
const VS16 = 0xfe0f;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

/**
 * The Unicode classes the classification reads, made on first use: building Unicode-property expressions
 * costs ~1 ms at start-up, which every run would pay, also one that never meets a hidden character.
 */
let classes:
  | {
      EMOJI: RegExp;
      PICTOGRAPH: RegExp;
      MODIFIER: RegExp;
      IDEOGRAPH: RegExp;
      LETTER: RegExp;
      LETTER_OR_MARK: RegExp;
      MARK: RegExp;
      VISIBLE_BASE: RegExp;
      MONGOLIAN: RegExp;
      RIGHT_TO_LEFT: RegExp;
    }
  | undefined;
function cls(): NonNullable<typeof classes> {
  return (classes ??= {
    EMOJI: /\p{Emoji}/u,
    PICTOGRAPH: /\p{Extended_Pictographic}/u,
    MODIFIER: /\p{Emoji_Modifier}/u,
    IDEOGRAPH: /\p{Ideographic}/u,
    LETTER: /\p{L}/u,
    LETTER_OR_MARK: /[\p{L}\p{M}]/u,
    MARK: /\p{M}/u,
    VISIBLE_BASE: /[\p{L}\p{M}\p{N}\p{S}\p{P}]/u,
    MONGOLIAN: /\p{Script_Extensions=Mongolian}/u,
    /** Letters written right to left (Bidi_Class R or AL), by script: a line with one may need a direction mark. */
    RIGHT_TO_LEFT:
      /[\p{Script_Extensions=Hebrew}\p{Script_Extensions=Arabic}\p{Script_Extensions=Syriac}\p{Script_Extensions=Thaana}\p{Script_Extensions=Nko}\p{Script_Extensions=Samaritan}\p{Script_Extensions=Mandaic}\p{Script_Extensions=Adlam}\p{Script_Extensions=Hanifi_Rohingya}\p{Script_Extensions=Yezidi}]/u,
  });
}

/**
 * Scripts whose letters take a zero-width joiner or non-joiner between them to choose a form (Persian
 * `می‌خواهم`, a Devanagari half form `क्‍ष`): the joining scripts and the scripts of India and
 * South-East Asia.
 */
const JOINING_SCRIPT_NAMES = [
  'Arabic',
  'Syriac',
  'Mandaic',
  'Nko',
  'Mongolian',
  'Phags_Pa',
  'Manichaean',
  'Psalter_Pahlavi',
  'Hanifi_Rohingya',
  'Sogdian',
  'Old_Uyghur',
  'Adlam',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Limbu',
  'Tai_Tham',
  'Balinese',
  'Javanese',
  'Sundanese',
  'Brahmi',
  'Kaithi',
  'Sharada',
  'Grantha',
  'Newa',
  'Tirhuta',
  'Chakma',
  'Takri',
  'Dogra',
];

/**
 * Their expressions, made on first use: building 39 Unicode-property expressions costs ~2 ms, which every
 * run would pay at start-up, also one that never meets a joiner (docs/performance.md).
 */
let joiningScripts: RegExp[] | undefined;
function joiningScriptsRe(): RegExp[] {
  return (joiningScripts ??= JOINING_SCRIPT_NAMES.map((s) => new RegExp(`\\p{Script_Extensions=${s}}`, 'u')));
}

/** The emoji tag sequences Unicode recommends (RGI): the flags of England, Scotland and Wales. */
const FLAG_TAGS = new Set(['gbeng', 'gbsct', 'gbwls']);

const isTag = (cp: number): boolean => cp >= 0xe0000 && cp <= 0xe007f;

function test(re: RegExp, cp: number | undefined): boolean {
  return cp !== undefined && re.test(String.fromCodePoint(cp));
}

/** The code point that ends just before `offset` (a surrogate pair read whole). */
function codePointBefore(text: string, offset: number): number | undefined {
  if (offset <= 0) return undefined;
  const low = text.charCodeAt(offset - 1);
  if (low >= 0xdc00 && low <= 0xdfff && offset >= 2) {
    const high = text.charCodeAt(offset - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(offset - 2);
  }
  return low;
}

/** A single joiner between two letters (or a virama and a letter) of one script that uses joiners. */
function scriptJoiner(before: number | undefined, after: number | undefined): boolean {
  if (!test(cls().LETTER_OR_MARK, before) || !test(cls().LETTER_OR_MARK, after)) return false;
  const a = String.fromCodePoint(before!);
  const b = String.fromCodePoint(after!);
  return joiningScriptsRe().some((re) => re.test(a) && re.test(b));
}

/** Whether the line around [start, end) holds a right-to-left letter (the mark itself, ALM being Arabic, aside). */
function rightToLeftLine(text: string, start: number, end: number): boolean {
  const from = text.lastIndexOf('\n', start) + 1;
  const next = text.indexOf('\n', end);
  return cls().RIGHT_TO_LEFT.test(text.slice(from, start)) || cls().RIGHT_TO_LEFT.test(text.slice(end, next === -1 ? text.length : next));
}

/**
 * Whether a maximal run of candidates is a legitimate use, given the code points around it: an emoji
 * sequence (a joiner between pictographs, a presentation selector after an emoji, a subdivision flag),
 * a variation sequence, or a joiner, separator or mark that a script needs. Anything else is reported.
 */
function legitimate(text: string, run: readonly number[], start: number, end: number): boolean {
  const before = codePointBefore(text, start);
  const after = text.codePointAt(end);
  const first = run[0]!;
  // An emoji ZWJ sequence: pictograph (skin tone, emoji presentation selector), ZWJ, pictograph.
  if ((run.length === 1 && first === ZWJ) || (run.length === 2 && first === VS16 && run[1] === ZWJ)) {
    if ((test(cls().PICTOGRAPH, before) || test(cls().MODIFIER, before)) && test(cls().PICTOGRAPH, after)) return true;
  }
  // A subdivision flag: U+1F3F4, the tag letters of its code, the cancel tag.
  if (before === BLACK_FLAG && run.length >= 2 && run[run.length - 1] === CANCEL_TAG && run.every(isTag)) {
    if (FLAG_TAGS.has(String.fromCharCode(...run.slice(0, -1).map((cp) => cp - 0xe0000)))) return true;
  }
  if (run.length !== 1) return false;
  // Variation sequences: one selector after the character it selects a glyph of.
  if (first === VS15 || first === VS16) return test(cls().EMOJI, before);
  if (first >= 0xfe00 && first <= 0xfe0d) return before !== undefined && before > 0x7f && test(cls().VISIBLE_BASE, before);
  if (first >= 0xe0100 && first <= 0xe01ef) return test(cls().IDEOGRAPH, before);
  // Mongolian: free variation selectors after a letter, the vowel separator between letters.
  if ((first >= 0x180b && first <= 0x180d) || first === 0x180f) return test(cls().MONGOLIAN, before) && test(cls().LETTER, before);
  if (first === 0x180e) return test(cls().MONGOLIAN, before) && test(cls().MONGOLIAN, after) && test(cls().LETTER, before) && test(cls().LETTER, after);
  if (first === ZWNJ || first === ZWJ) return scriptJoiner(before, after);
  // A soft hyphen inside a word; a grapheme joiner before the combining mark it keeps apart.
  if (first === 0x00ad) return test(cls().LETTER, before) && test(cls().LETTER, after);
  if (first === 0x034f) return test(cls().MARK, after);
  // A direction mark (LRM, RLM, ALM) in a line of right-to-left text.
  if (first === 0x200e || first === 0x200f || first === 0x061c) return rightToLeftLine(text, start, end);
  return false;
}

/** The runs of hidden characters a text holds that are reported, in order. */
export function hiddenRuns(text: string): HiddenRun[] {
  if (!mayHide(text)) return [];
  const out: HiddenRun[] = [];
  for (const m of text.matchAll(RUNS)) {
    const start = m.index;
    const end = start + m[0].length;
    const codePoints = Array.from(m[0], (c) => c.codePointAt(0)!);
    if (!legitimate(text, codePoints, start, end)) out.push({ start, end, codePoints });
  }
  return out;
}

/** `U+202E`: a code point as Unicode writes it. */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A code point as a visible escape: `\u{202E}`. */
function escapeOf(cp: number): string {
  return `\\u{${cp.toString(16).toUpperCase().padStart(4, '0')}}`;
}

/**
 * The text with every reported hidden character written as its visible escape (`\u{202E}`); the text
 * itself when it holds none. Legitimate uses (an emoji family, a Persian word) are kept as they are.
 */
export function escapeHidden(text: string): string {
  const runs = hiddenRuns(text);
  if (runs.length === 0) return text;
  let out = '';
  let last = 0;
  for (const r of runs) {
    out += text.slice(last, r.start) + r.codePoints.map(escapeOf).join('');
    last = r.end;
  }
  return out + text.slice(last);
}

const CANDIDATES = new RegExp(`[${CANDIDATE_CLASS}]`, 'gu');

/**
 * Serialized JSON (or XML) with every candidate character written as the format's own escape: the
 * values read back are unchanged (a path stays the real path), but the text a terminal or a log
 * viewer shows carries none of them raw. `escapeOne` gets the code point.
 */
export function escapeCandidates(serialized: string, escapeOne: (cp: number) => string): string {
  return mayHide(serialized) ? serialized.replace(CANDIDATES, (c) => escapeOne(c.codePointAt(0)!)) : serialized;
}

/** A code point as JSON writes it inside a string: `\u202e`, a surrogate pair for the tags. */
export function jsonEscape(cp: number): string {
  const unit = (u: number): string => `\\u${u.toString(16).padStart(4, '0')}`;
  if (cp < 0x10000) return unit(cp);
  const v = cp - 0x10000;
  return unit(0xd800 + (v >> 10)) + unit(0xdc00 + (v & 0x3ff));
}

/** Lowercase Unicode names of the candidates a message names (the tags are described by what they spell). */
const NAMES: Record<number, string> = {
  0x00ad: 'soft hyphen',
  0x034f: 'combining grapheme joiner',
  0x061c: 'arabic letter mark',
  0x115f: 'hangul choseong filler',
  0x1160: 'hangul jungseong filler',
  0x17b4: 'khmer vowel inherent aq',
  0x17b5: 'khmer vowel inherent aa',
  0x180e: 'mongolian vowel separator',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2061: 'function application',
  0x2062: 'invisible times',
  0x2063: 'invisible separator',
  0x2064: 'invisible plus',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0x3164: 'hangul filler',
  0xfeff: 'zero width no-break space',
  0xffa0: 'halfwidth hangul filler',
  0xfff9: 'interlinear annotation anchor',
  0xfffa: 'interlinear annotation separator',
  0xfffb: 'interlinear annotation terminator',
};

/** What one candidate is, in a few words (the same words for every member of a family). */
function nameOf(cp: number): string {
  const name = NAMES[cp];
  if (name !== undefined) return name;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'variation selector';
  if ((cp >= 0x180b && cp <= 0x180d) || cp === 0x180f) return 'mongolian free variation selector';
  if (cp >= 0x206a && cp <= 0x206f) return 'deprecated format character';
  if (cp >= 0x1bca0 && cp <= 0x1bca3) return 'shorthand format control';
  if (cp >= 0x1d173 && cp <= 0x1d17a) return 'musical symbol format control';
  return 'unassigned default-ignorable code point';
}

/** Code points a message lists before it writes `…`. */
const LISTED = 8;

/** The ASCII text that tag characters spell (U+E0020–U+E007E stand for U+0020–U+007E). */
function spelled(run: readonly number[]): string {
  return String.fromCharCode(...run.filter((cp) => cp >= 0xe0020 && cp <= 0xe007e).map((cp) => cp - 0xe0000));
}

/**
 * What a finding's message says it found: the run's code points (the first few, then `…`), the names
 * of what they are, and for tag characters the text they spell, which `quote` renders (backticks, one
 * line, at most 60 characters). E.g. `3 hidden characters U+E0041 U+E0042 U+E0043 (tag characters
 * spelling `ABC`)`.
 */
export function describeRun(run: readonly number[], quote: (s: string) => string): string {
  const listed = run.slice(0, LISTED).map(codePointName).join(' ') + (run.length > LISTED ? ' …' : '');
  const names = [...new Set(run.filter((cp) => !isTag(cp)).map(nameOf))];
  const parts = names.length > 3 ? [...names.slice(0, 3), '…'] : names;
  if (run.some(isTag)) {
    const text = spelled(run);
    parts.push(text === '' ? 'tag characters' : `tag characters spelling ${quote(text)}`);
  }
  const what = run.length === 1 ? `hidden character ${listed}` : `${run.length} hidden characters ${listed}`;
  return `${what} (${parts.join(', ')})`;
}
