// Tokenizes sample lines with the TextMate grammar of the repository's `syntaxes/` and
// checks the scopes of chosen tokens. Run with `npm test`.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const grammarPath = path.join(__dirname, '..', '..', '..', 'syntaxes', 'clrx.tmLanguage.json');

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.clrx'
        ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath)
        : null,
  });
  return registry.loadGrammar('source.clrx');
}

/** `[text, innermost scope]` for each token of each line. */
function tokenize(grammar, text) {
  let state = vsctm.INITIAL;
  const out = [];
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const t of result.tokens) {
      const s = line.slice(t.startIndex, t.endIndex);
      if (s.trim() !== '') {
        out.push([s.trim(), t.scopes[t.scopes.length - 1]]);
      }
    }
    state = result.ruleStack;
  }
  return out;
}

function scopeOf(tokens, text) {
  const found = tokens.find(([s]) => s === text);
  assert.ok(found, `no token ${JSON.stringify(text)} in ${JSON.stringify(tokens)}`);
  return found[1];
}

let grammar;
test.before(async () => {
  grammar = await loadGrammar();
});

test('comments', () => {
  const t = tokenize(grammar, 's_nop 0 # a comment\n/* block\n still */ s_endpgm');
  assert.strictEqual(scopeOf(t, '# a comment'), 'comment.line.number-sign.clrx');
  assert.strictEqual(scopeOf(t, 'block'), 'comment.block.clrx');
  assert.strictEqual(scopeOf(t, 'still'), 'comment.block.clrx');
  assert.strictEqual(scopeOf(t, 's_endpgm'), 'keyword.other.instruction.clrx');
});

test('labels, instructions, registers, numbers', () => {
  const t = tokenize(grammar, 'loop: v_add_f32 v1, s[2:3], 0x1f\n1: s_branch 1b ; s_mov_b32 vcc_lo, -1.5e3');
  assert.strictEqual(scopeOf(t, 'loop'), 'entity.name.label.clrx');
  assert.strictEqual(scopeOf(t, 'v_add_f32'), 'keyword.other.instruction.clrx');
  assert.strictEqual(scopeOf(t, 'v1'), 'variable.other.register.clrx');
  assert.strictEqual(scopeOf(t, 's'), 'variable.other.register.clrx');
  assert.strictEqual(scopeOf(t, '0x1f'), 'constant.numeric.hex.clrx');
  assert.strictEqual(scopeOf(t, '1'), 'entity.name.label.clrx');
  assert.strictEqual(scopeOf(t, '1b'), 'constant.numeric.local-label-ref.clrx');
  assert.strictEqual(scopeOf(t, 's_mov_b32'), 'keyword.other.instruction.clrx');
  assert.strictEqual(scopeOf(t, 'vcc_lo'), 'variable.other.register.special.clrx');
  assert.strictEqual(scopeOf(t, '1.5e3'), 'constant.numeric.float.clrx');
});

test('pseudo-ops, kernels, macros, symbols, strings', () => {
  const t = tokenize(
    grammar,
    '.kernel add\n.macro load reg\n  s_load_dword \\reg, s[0:1], 0\n.endm\n' +
      '.set flags, 8\nsize = 64\n.ascii "a\\n"\n.if size > 2\n.endif',
  );
  assert.strictEqual(scopeOf(t, '.kernel'), 'keyword.other.directive.clrx');
  assert.strictEqual(scopeOf(t, 'add'), 'entity.name.function.kernel.clrx');
  assert.strictEqual(scopeOf(t, '.macro'), 'keyword.control.directive.clrx');
  assert.strictEqual(scopeOf(t, 'load'), 'entity.name.function.macro.clrx');
  assert.strictEqual(scopeOf(t, '\\reg'), 'variable.parameter.macro.clrx');
  assert.strictEqual(scopeOf(t, '.endm'), 'keyword.control.directive.clrx');
  assert.strictEqual(scopeOf(t, 'flags'), 'variable.other.constant.clrx');
  assert.strictEqual(scopeOf(t, 'size'), 'variable.other.constant.clrx');
  assert.strictEqual(scopeOf(t, '.ascii'), 'keyword.other.directive.clrx');
  assert.strictEqual(scopeOf(t, '\\n'), 'constant.character.escape.clrx');
  assert.strictEqual(scopeOf(t, '.if'), 'keyword.control.directive.clrx');
});

test('modifiers are not mistaken for labels or instructions', () => {
  const t = tokenize(grammar, 'buffer_load_dword v1, v2, s[4:7], 0 offen offset:16 glc');
  assert.strictEqual(scopeOf(t, 'buffer_load_dword'), 'keyword.other.instruction.clrx');
  assert.strictEqual(scopeOf(t, 'offen'), 'storage.modifier.clrx');
  assert.strictEqual(scopeOf(t, 'offset'), 'storage.modifier.clrx');
  assert.strictEqual(scopeOf(t, '16'), 'constant.numeric.integer.clrx');
  assert.strictEqual(scopeOf(t, 'glc'), 'storage.modifier.clrx');
});

// The grammar against its sources of truth (see scripts/gen-grammar.js).
const gen = require('../scripts/gen-grammar');

test('the grammar is generated from the current instruction table and pseudo-op lists', () => {
  const current = fs.readFileSync(gen.grammarPath, 'utf8');
  const fresh = gen.render(gen.generate(JSON.parse(current)));
  assert.ok(current === fresh, 'syntaxes/clrx.tmLanguage.json is out of date: run `npm run gen-grammar --prefix editors/vscode`');
});

test('every mnemonic of the instruction table is an instruction, with and without suffixes', () => {
  const names = gen.mnemonics();
  assert.ok(names.length > 1000, `only ${names.length} mnemonics read`);
  const wrong = [];
  for (const name of names) {
    for (const text of [name, name.toUpperCase(), `${name}_e64`]) {
      const t = tokenize(grammar, `lbl: ${text} v1, v2`);
      const found = t.find(([s]) => s === text);
      if (!found || found[1] !== 'keyword.other.instruction.clrx') wrong.push(`${text}: ${found && found[1]}`);
    }
  }
  assert.deepStrictEqual(wrong, []);
  const t = tokenize(grammar, '    my_macro 1, 2\n    v_not_an_instruction v1');
  assert.strictEqual(scopeOf(t, 'my_macro'), 'entity.name.function.macro-call.clrx');
  assert.strictEqual(scopeOf(t, 'v_not_an_instruction'), 'entity.name.function.macro-call.clrx');
});

test('every pseudo-op (general and of each binary format) is a directive', () => {
  const names = gen.pseudoOps();
  for (const must of ['.kernel', '.gpu', '.amdcl2', '.sgprsnum', '.hsa_vgprsnum', '.md_language', '.arg', '.tgsize']) {
    assert.ok(names.includes(must), `${must} missing from the pseudo-op list`);
  }
  const wrong = [];
  for (const name of names) {
    const t = tokenize(grammar, `${name} 1`);
    const found = t.find(([s]) => s.toLowerCase() === name);
    if (!found || !/^keyword\.(other|control)\.directive\.clrx$/.test(found[1])) wrong.push(`${name}: ${found && found[1]}`);
  }
  assert.deepStrictEqual(wrong, []);
  const t = tokenize(grammar, '.no_such_op 1\n.local_sym = 3');
  assert.strictEqual(scopeOf(t, '.no_such_op'), 'invalid.illegal.unknown-directive.clrx');
  assert.strictEqual(scopeOf(t, '.local_sym'), 'variable.other.constant.clrx');
});

test("Neovim's syntax file is generated from the same lists", () => {
  const current = fs.readFileSync(gen.vimSyntaxPath, 'utf8');
  assert.ok(current === gen.vimSyntax(), 'editors/nvim/syntax/clrx.vim is out of date: run `npm run gen-grammar --prefix editors/vscode`');
});
