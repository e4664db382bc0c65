/**
 * Presets (docs/formats.md, "Presets"): configurations docgate ships in its package as data,
 * `presets/<name>.yaml`, written in the configuration language itself (a user could write each one as
 * their own docgate.config.yaml). This module only finds and reads them; config.ts layers them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** docgate's own `presets/` folder (next to `dist/` and `src/`, as `schemas/` is). */
export const PRESET_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../presets');

const PRESET_FILE = /^([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\.yaml$/;

let names: readonly string[] | undefined;

/** The names of the presets docgate ships, sorted (read once: the package does not change under a run). */
export function presetNames(): readonly string[] {
  if (names === undefined) {
    let entries: string[] = [];
    try {
      entries = readdirSync(PRESET_DIR);
    } catch {
      // A package without the folder ships no presets: every name is then unknown, never a crash.
    }
    names = entries
      .map((e) => PRESET_FILE.exec(e)?.[1])
      .filter((n): n is string => n !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  return names;
}

const texts = new Map<string, string>();

/** The text of a shipped preset (a name of presetNames()), read once per process. */
export function presetText(name: string): string {
  let text = texts.get(name);
  if (text === undefined) {
    text = readFileSync(join(PRESET_DIR, `${name}.yaml`), 'utf8');
    texts.set(name, text);
  }
  return text;
}

/** How a preset is named in messages about its own file: its place in the package. */
export function presetFile(name: string): string {
  return `presets/${name}.yaml`;
}
