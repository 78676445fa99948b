// Copies the TextMate grammar from the repository's `syntaxes/` into the extension, which
// can only package files under its own folder. Run before packaging or launching.
'use strict';
const fs = require('fs');
const path = require('path');

const from = path.join(__dirname, '..', '..', '..', 'syntaxes', 'clrx.tmLanguage.json');
const to = path.join(__dirname, '..', 'syntaxes', 'clrx.tmLanguage.json');
fs.mkdirSync(path.dirname(to), { recursive: true });
fs.copyFileSync(from, to);
console.log(`copied ${path.relative(process.cwd(), from)} -> ${path.relative(process.cwd(), to)}`);
