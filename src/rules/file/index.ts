import { fileBom } from './file-bom.js';
import { fileEncoding } from './file-encoding.js';
import { fileName } from './file-name.js';
import { fileNul } from './file-nul.js';
import { fileRead } from './file-read.js';
import { fileSymlink } from './file-symlink.js';
import { fileType } from './file-type.js';
import { fileUnmerged } from './file-unmerged.js';
import { fileSize } from './file-size.js';
import { hiddenUnicode } from './hidden-unicode.js';

/**
 * The rules every kind has: how its files are found, read, decoded and named, and whether the decoded
 * text hides characters (every kind lists these, so a kind of a root's own has them too).
 */
export const FILE_RULES = [fileBom, fileEncoding, fileNul, fileSize, fileType, fileSymlink, fileRead, fileUnmerged, fileName, hiddenUnicode] as const;

/** The rules of a document that was never read (a link out of the root or to no file of it, a folder, a special file, a file in conflict): nothing of it is fixed. */
export const UNREAD_RULES: ReadonlySet<string> = new Set([fileType.id, fileSymlink.id, fileRead.id, fileUnmerged.id]);
