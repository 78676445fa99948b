//! Builds rowan green trees bottom-up, sharing repeated tokens and small subtrees.
//!
//! rowan's `GreenNodeBuilder` interns every token and small node in hash maps that grow
//! with the input. Source code repeats itself at this scale (`, `, `s0`, `v[0:1]`, `0`),
//! so sharing spares most allocations, but the maps cost a full hash and probe per
//! element. Here the tables are direct-mapped and fixed in size: a lookup hashes a few
//! words and compares once, a collision replaces the older entry, and memory stays
//! bounded. Sharing is invisible: green nodes are immutable and compared by value.

use std::ops::Range;

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::SyntaxKind;

type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// Longest token text worth sharing: longer ones (comments, strings) rarely repeat and
/// would only evict the ones that do. At most 16 (see [`TokenKey`]).
const MAX_SHARED_TOKEN_LEN: usize = 16;

/// Most children of a shared node: enough for `[0:1]`, whose five children make a
/// register range, and so for the register node above it.
const MAX_SHARED_NODE_CHILDREN: usize = 5;

/// Table sizes, in bits, by the number of tokens to build from (a slot for every four):
/// a small reparse needs a small table; a whole long file needs a large one, or its
/// distinct elements evict each other before they repeat (65,536 slots take 5.5 MiB).
const MIN_TABLE_BITS: u32 = 6;
const MAX_TABLE_BITS: u32 = 16;

/// The builder: `start_node`, `token`, `finish_node`, then `finish`, as with rowan's.
pub(crate) struct GreenBuilder {
    parents: Vec<OpenNode>,
    /// The children of the open nodes, innermost last.
    children: Vec<GreenElement>,
    cache: GreenCache,
}

/// A node started and not finished yet.
struct OpenNode {
    kind: SyntaxKind,
    /// Where its children start in [`GreenBuilder::children`].
    first: usize,
    /// Whether all its children so far are shared (found in or put in the cache): only
    /// then can the node itself be, its key made of their identities.
    shareable: bool,
}

impl GreenBuilder {
    /// A builder for about `tokens` tokens.
    pub(crate) fn new(tokens: usize) -> GreenBuilder {
        GreenBuilder { parents: Vec::new(), children: Vec::new(), cache: GreenCache::new(tokens) }
    }

    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push(OpenNode { kind, first: self.children.len(), shareable: true });
    }

    /// A token of `kind` whose text is `text[range]`: the text is sliced as a `str` only
    /// when the token is new, which spares the character boundary checks.
    #[inline]
    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) {
        let token = match self.cache.token(kind, text, range.clone()) {
            Some(token) => token,
            None => {
                self.child_unshared();
                new_token(kind, text, range)
            }
        };
        self.children.push(token.into());
    }

    /// A node of `kind` whose only child is a token of `token_kind`, `text[range]`: as
    /// `start_node`, `token`, `finish_node`, but found in one lookup when shared.
    #[inline]
    pub(crate) fn token_node(&mut self, kind: SyntaxKind, token_kind: SyntaxKind, text: &str, range: Range<usize>) {
        match TokenKey::new(token_kind, &text.as_bytes()[range.clone()]) {
            Some(key) => {
                let node = self.cache.token_node(kind, (token_kind, key), text, range);
                self.children.push(node.into());
            }
            None => {
                self.start_node(kind);
                self.token(token_kind, text, range);
                self.finish_node();
            }
        }
    }

    #[inline]
    pub(crate) fn finish_node(&mut self) {
        let OpenNode { kind, first, shareable } = self.parents.pop().expect("finish_node without start_node");
        let node = if shareable && self.children.len() - first <= MAX_SHARED_NODE_CHILDREN {
            self.cache.node(kind, &mut self.children, first)
        } else {
            self.child_unshared();
            new_node(kind, &mut self.children, first)
        };
        self.children.push(node.into());
    }

    /// Notes that the child being added to the innermost open node is not shared.
    #[inline]
    fn child_unshared(&mut self) {
        if let Some(parent) = self.parents.last_mut() {
            parent.shareable = false;
        }
    }

    /// The root, once every node is finished.
    pub(crate) fn finish(mut self) -> GreenNode {
        assert!(self.parents.is_empty() && self.children.len() == 1, "unbalanced tree");
        match self.children.pop() {
            Some(NodeOrToken::Node(root)) => root,
            _ => panic!("the root is a token"),
        }
    }
}

struct GreenCache {
    /// One-byte tokens (`,`, ` `, `[`, `0`, `\n`), about half of all, by their byte:
    /// found without a key or a hash.
    bytes: Box<[Option<(SyntaxKind, GreenToken)>; 256]>,
    tokens: Vec<TokenSlot>,
    /// Nodes of shared children: a node is its own key (its kind and its children's
    /// identities), and it keeps the children alive, so an identity it holds cannot be
    /// reused by another element meanwhile.
    nodes: Vec<Option<GreenNode>>,
    /// Nodes of one token, by the node's kind and the token's key.
    token_nodes: Vec<NodeOfTokenSlot>,
    /// `64 - table bits`: a hash's top bits index the tables.
    shift: u32,
}

/// A shared token and its key.
#[derive(Clone, Default)]
struct TokenSlot {
    key: TokenKey,
    token: Option<GreenToken>,
}

/// A shared node of one token, and its key: the token's, with the node's kind added.
#[derive(Clone, Default)]
struct NodeOfTokenSlot {
    key: TokenKey,
    node: Option<GreenNode>,
}

/// The identity of a shared element: its address, which it keeps while it lives.
#[inline]
fn identity(element: &GreenElement) -> usize {
    match element {
        NodeOrToken::Node(node) => &**node as *const rowan::GreenNodeData as usize,
        NodeOrToken::Token(token) => &**token as *const rowan::GreenTokenData as usize,
    }
}

/// Whether `node` is of `kind` and made of `children`, by their identities.
#[inline]
fn node_is(node: &GreenNode, kind: SyntaxKind, children: &[GreenElement]) -> bool {
    node.kind() == kind.into()
        && node.children().len() == children.len()
        && node.children().zip(children).all(|(old, new)| {
            let old = match old {
                NodeOrToken::Node(node) => node as *const rowan::GreenNodeData as usize,
                NodeOrToken::Token(token) => token as *const rowan::GreenTokenData as usize,
            };
            old == identity(new)
        })
}

fn node_hash(kind: SyntaxKind, children: &[GreenElement]) -> u64 {
    children.iter().fold(kind as u64, |hash, child| mix(hash, identity(child) as u64))
}

impl GreenCache {
    fn new(tokens: usize) -> GreenCache {
        let bits = (tokens / 4).max(1).ilog2().clamp(MIN_TABLE_BITS, MAX_TABLE_BITS);
        let size = 1 << bits;
        let (tokens, nodes) = (vec![TokenSlot::default(); size], vec![None; size]);
        let token_nodes = vec![NodeOfTokenSlot::default(); size];
        let bytes = vec![None; 256].into_boxed_slice().try_into().expect("256 slots");
        GreenCache { bytes, tokens, nodes, token_nodes, shift: 64 - bits }
    }

    /// The shared token of `kind` and `text[range]`; `None` if it is too long to share.
    #[inline]
    fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) -> Option<GreenToken> {
        let bytes = &text.as_bytes()[range.clone()];
        if let [byte] = *bytes {
            return Some(match &self.bytes[usize::from(byte)] {
                Some((slot_kind, token)) if *slot_kind == kind => token.clone(),
                _ => self.new_byte_token(kind, text, range),
            });
        }
        let key = TokenKey::new(kind, bytes)?;
        let slot = &mut self.tokens[(key.hash() >> self.shift) as usize];
        Some(match &slot.token {
            Some(token) if slot.key == key => token.clone(),
            _ => {
                slot.key = key;
                slot.token.insert(new_token(kind, text, range)).clone()
            }
        })
    }

    #[cold]
    #[inline(never)]
    fn new_byte_token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) -> GreenToken {
        let byte = text.as_bytes()[range.start];
        self.bytes[usize::from(byte)].insert((kind, new_token(kind, text, range))).1.clone()
    }

    /// The node of `kind` around the token of `token_kind` and `token_key`, `text[range]`.
    #[inline]
    fn token_node(
        &mut self,
        kind: SyntaxKind,
        (token_kind, token_key): (SyntaxKind, TokenKey),
        text: &str,
        range: Range<usize>,
    ) -> GreenNode {
        let key = token_key.with_node_kind(kind);
        let slot = &self.token_nodes[(key.hash() >> self.shift) as usize];
        match &slot.node {
            Some(node) if slot.key == key => node.clone(),
            _ => self.new_token_node(kind, (token_kind, key), text, range),
        }
    }

    #[cold]
    #[inline(never)]
    fn new_token_node(
        &mut self,
        kind: SyntaxKind,
        (token_kind, key): (SyntaxKind, TokenKey),
        text: &str,
        range: Range<usize>,
    ) -> GreenNode {
        let token = self.token(token_kind, text, range).expect("a token with a key is shared");
        let node = GreenNode::new(kind.into(), [token.into()]);
        let slot = &mut self.token_nodes[(key.hash() >> self.shift) as usize];
        slot.key = key;
        slot.node.insert(node).clone()
    }

    /// The shared node of `kind` made of `children[first..]`, all shared, which it takes.
    #[inline]
    fn node(&mut self, kind: SyntaxKind, children: &mut Vec<GreenElement>, first: usize) -> GreenNode {
        let own = &children[first..];
        let slot = &mut self.nodes[(node_hash(kind, own) >> self.shift) as usize];
        match slot {
            Some(node) if node_is(node, kind, own) => {
                let node = node.clone();
                children.truncate(first);
                node
            }
            _ => slot.insert(new_node(kind, children, first)).clone(),
        }
    }
}

#[cold]
#[inline(never)]
fn new_token(kind: SyntaxKind, text: &str, range: Range<usize>) -> GreenToken {
    GreenToken::new(kind.into(), &text[range])
}

/// The node of `kind` made of `children[first..]`, which it takes.
#[inline(never)]
fn new_node(kind: SyntaxKind, children: &mut Vec<GreenElement>, first: usize) -> GreenNode {
    GreenNode::new(kind.into(), children.drain(first..))
}

/// A token's kind and text, packed in three words, for tokens short enough to share:
/// with the length known, the first and last eight bytes (overlapping when shorter)
/// are the whole text. Equal keys are equal tokens; comparing them reads no text.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct TokenKey {
    head: u64,
    tail: u64,
    kind_and_len: u64,
}

impl TokenKey {
    fn new(kind: SyntaxKind, text: &[u8]) -> Option<TokenKey> {
        let len = text.len();
        let (head, tail) = match len {
            0 => (0, 0),
            1..=3 => (u64::from(text[0]) | u64::from(text[len / 2]) << 8 | u64::from(text[len - 1]) << 16, 0),
            4..=7 => (u64::from(read_u32(&text[..4])), u64::from(read_u32(&text[len - 4..]))),
            8..=MAX_SHARED_TOKEN_LEN => (read_u64(&text[..8]), read_u64(&text[len - 8..])),
            _ => return None,
        };
        Some(TokenKey { head, tail, kind_and_len: (kind as u64) << 32 | len as u64 })
    }

    fn hash(&self) -> u64 {
        mix(mix(self.kind_and_len, self.head), self.tail)
    }

    /// The key of a node of `kind` around this token: the kind goes in the top bits,
    /// unused by a token's key.
    fn with_node_kind(self, kind: SyntaxKind) -> TokenKey {
        TokenKey { kind_and_len: self.kind_and_len | (kind as u64) << 48, ..self }
    }
}

fn read_u32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes.try_into().unwrap())
}

fn read_u64(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().unwrap())
}

/// One step of a multiplicative hash (as FxHash): the top bits depend on every input bit.
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95)
}
