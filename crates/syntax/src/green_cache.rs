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

/// A green element under construction, with its identity if it is shared (found in or
/// put in the cache): only a node whose children are all shared can itself be shared,
/// and its key is made of their identities.
struct Child {
    element: GreenElement,
    /// The address of the shared element; 0 if not shared.
    id: usize,
}

impl Child {
    fn shared_token(token: GreenToken) -> Child {
        let id = &*token as *const rowan::GreenTokenData as usize;
        Child { element: token.into(), id }
    }

    fn shared_node(node: GreenNode) -> Child {
        let id = &*node as *const rowan::GreenNodeData as usize;
        Child { element: node.into(), id }
    }

    fn unshared(element: GreenElement) -> Child {
        Child { element, id: 0 }
    }
}

/// The builder: `start_node`, `token`, `finish_node`, then `finish`, as with rowan's.
pub(crate) struct GreenBuilder {
    parents: Vec<(SyntaxKind, usize)>,
    children: Vec<Child>,
    cache: GreenCache,
}

impl GreenBuilder {
    /// A builder for about `tokens` tokens.
    pub(crate) fn new(tokens: usize) -> GreenBuilder {
        GreenBuilder { parents: Vec::new(), children: Vec::new(), cache: GreenCache::new(tokens) }
    }

    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    /// A token of `kind` whose text is `text[range]`: the text is sliced as a `str` only
    /// when the token is new, which spares the character boundary checks.
    #[inline]
    pub(crate) fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) {
        let child = self.cache.token(kind, text, range);
        self.children.push(child);
    }

    /// A node of `kind` whose only child is a token of `token_kind`, `text[range]`: as
    /// `start_node`, `token`, `finish_node`, but found in one lookup when shared.
    #[inline]
    pub(crate) fn token_node(&mut self, kind: SyntaxKind, token_kind: SyntaxKind, text: &str, range: Range<usize>) {
        match TokenKey::new(token_kind, &text.as_bytes()[range.clone()]) {
            Some(key) => {
                let child = self.cache.token_node(kind, (token_kind, key), text, range);
                self.children.push(child);
            }
            None => {
                self.start_node(kind);
                self.token(token_kind, text, range);
                self.finish_node();
            }
        }
    }

    pub(crate) fn finish_node(&mut self) {
        let (kind, first) = self.parents.pop().expect("finish_node without start_node");
        let child = self.cache.node(kind, &mut self.children, first);
        self.children.push(child);
    }

    /// The root, once every node is finished.
    pub(crate) fn finish(mut self) -> GreenNode {
        assert!(self.parents.is_empty() && self.children.len() == 1, "unbalanced tree");
        match self.children.pop().map(|c| c.element) {
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
    nodes: Vec<NodeSlot>,
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

/// A shared node and its key.
#[derive(Clone, Default)]
struct NodeSlot {
    key: NodeKey,
    node: Option<GreenNode>,
}

/// A shared node of one token, and its key: the token's, with the node's kind added.
#[derive(Clone, Default)]
struct NodeOfTokenSlot {
    key: TokenKey,
    node: Option<GreenNode>,
}

/// A node's kind and its children's identities. The slot's node keeps the children
/// alive, so an identity in a key cannot be reused by another element meanwhile.
#[derive(Clone, Copy, Default)]
struct NodeKey {
    kind: u16,
    len: u16,
    children: [usize; MAX_SHARED_NODE_CHILDREN],
}

impl PartialEq for NodeKey {
    fn eq(&self, other: &NodeKey) -> bool {
        // Word by word, up to the length: the derived comparison calls `bcmp` on the
        // whole key, which costs more than the few words that differ in practice.
        self.kind == other.kind
            && self.len == other.len
            && (0..self.len as usize).all(|i| self.children[i] == other.children[i])
    }
}

impl NodeKey {
    /// The key of a node made of `children`, if it can be shared.
    fn new(kind: SyntaxKind, children: &[Child]) -> Option<NodeKey> {
        if children.len() > MAX_SHARED_NODE_CHILDREN {
            return None;
        }
        let mut key = NodeKey { kind: kind as u16, len: children.len() as u16, children: [0; MAX_SHARED_NODE_CHILDREN] };
        for (id, child) in key.children.iter_mut().zip(children) {
            if child.id == 0 {
                return None;
            }
            *id = child.id;
        }
        Some(key)
    }

    fn hash(&self) -> u64 {
        let ids = &self.children[..self.len as usize];
        ids.iter().fold(u64::from(self.kind), |hash, &id| mix(hash, id as u64))
    }
}

impl GreenCache {
    fn new(tokens: usize) -> GreenCache {
        let bits = (tokens / 4).max(1).ilog2().clamp(MIN_TABLE_BITS, MAX_TABLE_BITS);
        let size = 1 << bits;
        let (tokens, nodes) = (vec![TokenSlot::default(); size], vec![NodeSlot::default(); size]);
        let token_nodes = vec![NodeOfTokenSlot::default(); size];
        let bytes = vec![None; 256].into_boxed_slice().try_into().expect("256 slots");
        GreenCache { bytes, tokens, nodes, token_nodes, shift: 64 - bits }
    }

    #[inline]
    fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) -> Child {
        let bytes = &text.as_bytes()[range.clone()];
        let new = || GreenToken::new(kind.into(), &text[range]);
        if let [byte] = *bytes {
            return self.byte_token(kind, byte, new);
        }
        let Some(key) = TokenKey::new(kind, bytes) else {
            return Child::unshared(new().into());
        };
        let slot = &mut self.tokens[(key.hash() >> self.shift) as usize];
        let token = match &slot.token {
            Some(token) if slot.key == key => token.clone(),
            _ => {
                slot.key = key;
                slot.token.insert(new()).clone()
            }
        };
        Child::shared_token(token)
    }

    #[inline]
    fn byte_token(&mut self, kind: SyntaxKind, byte: u8, new: impl FnOnce() -> GreenToken) -> Child {
        let slot = &mut self.bytes[usize::from(byte)];
        let token = match slot {
            Some((slot_kind, token)) if *slot_kind == kind => token.clone(),
            _ => slot.insert((kind, new())).1.clone(),
        };
        Child::shared_token(token)
    }

    /// The node of `kind` around the token of `token_kind` and `token_key`, `text[range]`.
    #[inline]
    fn token_node(
        &mut self,
        kind: SyntaxKind,
        (token_kind, token_key): (SyntaxKind, TokenKey),
        text: &str,
        range: Range<usize>,
    ) -> Child {
        let key = token_key.with_node_kind(kind);
        let slot = &mut self.token_nodes[(key.hash() >> self.shift) as usize];
        if let Some(node) = slot.node.as_ref().filter(|_| slot.key == key) {
            return Child::shared_node(node.clone());
        }
        let token = self.token(token_kind, text, range).element;
        let node = GreenNode::new(kind.into(), [token]);
        let slot = &mut self.token_nodes[(key.hash() >> self.shift) as usize];
        slot.key = key;
        Child::shared_node(slot.node.insert(node).clone())
    }

    /// The node of `kind` made of `children[first..]`, which it takes.
    fn node(&mut self, kind: SyntaxKind, children: &mut Vec<Child>, first: usize) -> Child {
        let Some(key) = NodeKey::new(kind, &children[first..]) else {
            return Child::unshared(new_node(kind, children, first).into());
        };
        let slot = &mut self.nodes[(key.hash() >> self.shift) as usize];
        let node = match &slot.node {
            Some(node) if slot.key == key => {
                children.truncate(first);
                node.clone()
            }
            _ => {
                slot.key = key;
                slot.node.insert(new_node(kind, children, first)).clone()
            }
        };
        Child::shared_node(node)
    }
}

fn new_node(kind: SyntaxKind, children: &mut Vec<Child>, first: usize) -> GreenNode {
    GreenNode::new(kind.into(), children.drain(first..).map(|c| c.element))
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
