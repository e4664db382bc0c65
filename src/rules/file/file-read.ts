import { FILE_START } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

/** Never opened: an entry that cannot be read as a regular file. */
export const fileRead = defineRule({
  id: 'file-read',
  description: 'File must be readable',
  fileLevel: true,
  examples: {
    ok: [{ path: 'frameworks/POWER.md', text: '# POWER\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: { entry: 'broken-link' },
        shown: 'a symbolic link to nothing',
        expected: ['1:1 Unexpected entry that cannot be read (broken link?), expected a readable file'],
      },
      {
        path: 'processes/deploy.md',
        text: { entry: 'fifo' },
        shown: 'a FIFO',
        expected: ['1:1 Unexpected special file (FIFO, socket or device), expected a regular file'],
      },
    ],
  },
  file(stage, report) {
    const p = stage.problem;
    if (p?.type === 'unreadable') report(FILE_START, 'entry that cannot be read (broken link?)', 'a readable file');
    else if (p?.type === 'special') report(FILE_START, 'special file (FIFO, socket or device)', 'a regular file');
    else if (p?.type === 'read-error') report(FILE_START, `read error ${p.code}`, 'a readable file');
    else if (p?.type === 'folder-unreadable') report(FILE_START, `folder that cannot be listed (${p.code})`, 'a readable folder');
  },
});
