import { FILE_START, quote } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

export const fileName = defineRule({
  id: 'file-name',
  description: 'File name must follow the naming rule of its kind',
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: 'framework: POWER\n', shown: 'templates/power/readme.txt' }],
    notOk: [
      {
        path: 'templates/power/read-me.txt',
        text: 'framework: POWER\n',
        shown: 'templates/power/read-me.txt',
        expected: ['1:1 Unexpected file name `read-me.txt`, expected lowercase letters and digits only, such as `readme.txt`'],
      },
    ],
  },
  file(stage, report) {
    if (stage.problem?.type === 'bad-name') report(FILE_START, 'file name that is not valid UTF-8', 'a UTF-8 file name');
    // Only a file that was read and decoded: a file that cannot be read gets that defect alone.
    const rule = stage.fileName;
    const d = stage.decoding;
    if (rule === null || stage.problem !== null || d === null || d.bom || d.invalid !== null || d.nul !== null) return;
    const name = stage.path.slice(stage.path.lastIndexOf('/') + 1);
    const dot = name.lastIndexOf('.');
    if (!rule.pattern.test(dot > 0 ? name.slice(0, dot) : name)) report(FILE_START, `file name ${quote(name)}`, rule.expected);
  },
});
