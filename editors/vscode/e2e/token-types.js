// VS Code's own semantic token types (vs/platform/theme/common/tokenClassificationRegistry),
// which an extension uses as they are and must not declare again.
'use strict';

const STANDARD_TOKEN_TYPES = [
  'comment', 'string', 'keyword', 'number', 'regexp', 'operator', 'namespace', 'type',
  'struct', 'class', 'interface', 'enum', 'typeParameter', 'function', 'member', 'method',
  'macro', 'variable', 'parameter', 'property', 'enumMember', 'event', 'decorator', 'label',
];

/** The server's legend types that VS Code knows neither as its own nor from the manifest. */
function unknownTokenTypes(legendTypes, manifest) {
  const contributed = manifest.contributes.semanticTokenTypes.map((t) => t.id);
  return legendTypes.filter((id) => !STANDARD_TOKEN_TYPES.includes(id) && !contributed.includes(id));
}

module.exports = { STANDARD_TOKEN_TYPES, unknownTokenTypes };
