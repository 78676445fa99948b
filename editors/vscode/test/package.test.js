// Checks the extension manifest's contributions that VS Code trusts without checking.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const path = require('path');

const manifest = require(path.join(__dirname, '..', 'package.json'));

const { STANDARD_TOKEN_TYPES: STANDARD_TYPES, unknownTokenTypes } = require('../e2e/token-types');

test('semantic token types: new ids only, each with a super type that ends in a standard one', () => {
  const contributed = new Map(manifest.contributes.semanticTokenTypes.map((t) => [t.id, t]));
  for (const [id, type] of contributed) {
    // Redeclaring a standard type replaces VS Code's own entry; `label` with super type
    // `label` made VS Code's type hierarchy endless and froze the window for ~30 s.
    assert.ok(!STANDARD_TYPES.includes(id), `${id} is a standard type: use it, do not redeclare it`);
    const seen = [id];
    let superType = type.superType;
    while (superType !== undefined && !STANDARD_TYPES.includes(superType)) {
      assert.ok(contributed.has(superType), `${seen.join(' -> ')} -> ${superType}: unknown type`);
      assert.ok(!seen.includes(superType), `${seen.join(' -> ')} -> ${superType}: a cycle`);
      seen.push(superType);
      superType = contributed.get(superType).superType;
    }
  }
});

test('every contributed type has a TextMate scope, every scope a known type', () => {
  const contributed = manifest.contributes.semanticTokenTypes.map((t) => t.id);
  const scopes = manifest.contributes.semanticTokenScopes.find((s) => s.language === 'clrx').scopes;
  for (const id of contributed) {
    assert.ok(Array.isArray(scopes[id]) && scopes[id].length > 0, `${id} has no fallback scope`);
  }
  for (const id of Object.keys(scopes)) {
    assert.ok(STANDARD_TYPES.includes(id) || contributed.includes(id), `scope for unknown type ${id}`);
  }
});

test('unknown legend types are found (the end-to-end test checks the server\'s legend with it)', () => {
  assert.deepStrictEqual(unknownTokenTypes(['label', 'register', 'opcode'], manifest), ['opcode']);
});

test('each semantic token type is drawn with a scope of the grammar: no colour change when the tokens arrive', () => {
  const grammar = JSON.stringify(require(path.join(__dirname, '..', '..', '..', 'syntaxes', 'clrx.tmLanguage.json')));
  const used = new Set([...grammar.matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]));
  const scopes = manifest.contributes.semanticTokenScopes.find((s) => s.language === 'clrx').scopes;
  for (const [type, list] of Object.entries(scopes)) {
    assert.ok(list.every((scope) => used.has(scope)), `${type}: ${list} is not a scope of the grammar`);
  }
});
