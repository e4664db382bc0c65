import type { Analysis, FileText } from '../core/analysis.js';
import { baseName } from '../core/analysis.js';
import { FILE_START, diag, quote } from '../core/position.js';
import type { Diagnostic } from '../core/types.js';

const FILE_NAME = /^[A-Za-z0-9]+\.md$/;

export function analyzeFramework(file: FileText): Analysis {
  const diagnostics: Diagnostic[] = [];
  const name = baseName(file.path);
  if (!FILE_NAME.test(name)) {
    diagnostics.push(diag(FILE_START, 'file-name', `Unexpected file name ${quote(name)}, expected letters and digits with \`.md\`, such as \`POWER.md\``));
  }
  if (file.text.trim() === '') {
    diagnostics.push(diag(FILE_START, 'file-empty', 'Unexpected empty file, expected a document starting with a `# ` heading'));
  } else {
    const nl = file.text.indexOf('\n');
    const first = (nl === -1 ? file.text : file.text.slice(0, nl)).replace(/\r$/, '');
    if (!/^# \S/.test(first)) {
      diagnostics.push(diag(FILE_START, 'framework-heading', `Unexpected first line ${quote(first)}, expected a \`# \` heading`));
    }
  }
  return {
    path: file.path,
    kind: 'framework',
    id: name,
    diagnostics,
    facts: { kind: 'framework' },
    doc: diagnostics.length === 0 ? { kind: 'framework', name, size: file.size, content: file.text } : null,
  };
}
