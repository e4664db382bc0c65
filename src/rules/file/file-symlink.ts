import { FILE_START } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

/** Never followed: a link that leaves the root. */
export const fileSymlink = defineRule({
  id: 'file-symlink',
  description: 'A symbolic link must resolve inside the root',
  fileLevel: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: { entry: 'symlink-outside' },
        shown: 'a symbolic link to a file outside the root',
        expected: ['1:1 Unexpected symbolic link to a target outside the root, expected a file inside the root'],
      },
    ],
  },
  file(stage, report) {
    const p = stage.problem;
    if (p?.type === 'symlink-outside') report(FILE_START, 'symbolic link to a target outside the root', 'a file inside the root');
    else if (p?.type === 'folder-outside')
      report(FILE_START, 'folder that resolves outside the root (through a symbolic link)', `the ${p.kind} folder inside the root`);
  },
});
