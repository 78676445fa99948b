//! Builds rowan green trees bottom-up, sharing repeated tokens and small subtrees.
//!
//! rowan's `GreenNodeBuilder` interns every token and small node in hash maps that grow
//! with the input. Source code repeats itself at this scale (`, `, `s0`, `v[0:1]`, `0`),
//! so sharing spares most allocations, but the maps cost a full hash and probe per
//! element. Here the tables are direct-mapped and fixed in size: a lookup hashes a few
//! words and compares once, a collision replaces the older entry, and memory stays
//! bounded. Sharing is invisible: green nodes are immutable and compared by value.

use std::cell::Cell;
use std::ops::Range;

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::SyntaxKind;

type GreenElement = NodeOrToken<GreenNode, GreenToken>;

/// Longest token text worth sharing: longer ones (comments, strings) rarely repeat and
/// would only evict the ones that do. Long mnemonics (`tbuffer_load_format_d16_xyzw`)
/// still repeat. At most 32 (see [`TokenKey`]).
const MAX_SHARED_TOKEN_LEN: usize = 32;

/// Most children of a shared node: enough for `[0:1]`, whose five children make a
/// register range, and so for the register node above it.
const MAX_SHARED_NODE_CHILDREN: usize = 5;

/// Table sizes, in bits, by the number of tokens to build from (a slot for every four):
/// a small reparse needs a small table; a whole long file needs a large one, or its
/// distinct elements evict each other before they repeat (65,536 slots take 4.5 MiB).
const MIN_TABLE_BITS: u32 = 6;
const MAX_TABLE_BITS: u32 = 16;

/// Largest tables kept for the next build on the same thread: those of a part of a long
/// source (64 KiB, 4,096 slots, 300 KiB), not those of a whole long file.
const MAX_SPARE_TABLE_BITS: u32 = 13;

thread_local! {
    /// The builder of the last build on this thread: its tables and vectors serve the
    /// next build, which spares allocating and clearing them, and growing the vectors,
    /// for every part of a long source. Its cache is empty unless that build shared
    /// [across the thread's builds](Sharing::AcrossThreadBuilds).
    static SPARE: Cell<Option<GreenBuilder>> = const { Cell::new(None) };
}

/// How long the elements a build shares are kept for later builds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sharing {
    /// Not past the build: the tree shares no element with another tree, so it can be
    /// read on another thread while this one builds more.
    WithinBuild,
    /// Across this thread's builds that share so: a later tree finds the elements it
    /// repeats instead of making them again. For trees read and dropped on this thread:
    /// a tree read on another thread would share reference counts with the trees built
    /// here after it, written here while they are read there.
    AcrossThreadBuilds,
}

/// The builder: `start_node`, `token`, `finish_node`, then `finish`, as with rowan's.
pub(crate) struct GreenBuilder {
    parents: Vec<OpenNode>,
    /// The children of the open nodes, innermost last.
    children: Vec<GreenElement>,
    cache: GreenCache,
    sharing: Sharing,
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
    /// A builder for about `tokens` tokens: the spare one of this thread if its tables
    /// are large enough.
    pub(crate) fn new(tokens: usize, sharing: Sharing) -> GreenBuilder {
        let bits = (tokens / 4)
            .max(1)
            .ilog2()
            .clamp(MIN_TABLE_BITS, MAX_TABLE_BITS);
        let mut builder = match SPARE.take() {
            Some(spare) if spare.cache.bits() >= bits => spare,
            _ => GreenBuilder {
                parents: Vec::new(),
                children: Vec::new(),
                cache: GreenCache::new(bits),
                sharing: Sharing::WithinBuild,
            },
        };
        if sharing == Sharing::WithinBuild {
            builder.cache.clear();
        }
        builder.sharing = sharing;
        builder
    }

    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push(OpenNode {
            kind,
            first: self.children.len(),
            shareable: true,
        });
    }

    /// A token of `kind` whose text is `text[range]`: the text is sliced as a `str` only
    /// when the token is new, which spares the character boundary checks.
    #[inline(always)]
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
    #[inline(always)]
    pub(crate) fn token_node(
        &mut self,
        kind: SyntaxKind,
        token_kind: SyntaxKind,
        text: &str,
        range: Range<usize>,
    ) {
        match TokenKey::new(token_kind, text.as_bytes(), range.clone()).filter(TokenKey::is_exact) {
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

    #[inline(always)]
    pub(crate) fn finish_node(&mut self) {
        let OpenNode {
            kind,
            first,
            shareable,
        } = self.parents.pop().expect("finish_node without start_node");
        let node = if shareable && self.children.len() - first <= MAX_SHARED_NODE_CHILDREN {
            self.cache.node(kind, &mut self.children, first)
        } else {
            self.child_unshared();
            new_node(kind, &mut self.children, first)
        };
        self.children.push(node.into());
    }

    /// A subtree of `kind` made of `text[range]`, whose shape is fixed by the caller (so
    /// that the text alone tells the subtree): found in one lookup and added, if it was
    /// [remembered](Self::remember_subtree) before. False if not: the caller builds it.
    #[inline(always)]
    pub(crate) fn subtree(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) -> bool {
        let Some(key) = TokenKey::new(kind, text.as_bytes(), range).filter(TokenKey::is_exact)
        else {
            return false;
        };
        match self
            .cache
            .subtrees
            .get((key.hash() >> self.cache.shift) as usize)
        {
            Some((slot_key, node)) if *slot_key == key => {
                let node = node.clone();
                self.children.push(node.into());
                true
            }
            _ => false,
        }
    }

    /// Keeps the last child, a subtree just built as [`subtree`](Self::subtree)
    /// describes, to be found by its text.
    #[inline(never)]
    pub(crate) fn remember_subtree(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) {
        let Some(key) = TokenKey::new(kind, text.as_bytes(), range).filter(TokenKey::is_exact)
        else {
            return;
        };
        if let Some(NodeOrToken::Node(node)) = self.children.last() {
            let index = (key.hash() >> self.cache.shift) as usize;
            self.cache.subtrees.insert(index, (key, node.clone()));
        }
    }

    /// Notes that the child being added to the innermost open node is not shared.
    #[inline]
    fn child_unshared(&mut self) {
        if let Some(parent) = self.parents.last_mut() {
            parent.shareable = false;
        }
    }

    /// The root, once every node is finished. The builder is kept as the thread's spare,
    /// emptied unless it shares across the thread's builds.
    pub(crate) fn finish(mut self) -> GreenNode {
        assert!(
            self.parents.is_empty() && self.children.len() == 1,
            "unbalanced tree"
        );
        let Some(NodeOrToken::Node(root)) = self.children.pop() else {
            panic!("the root is a token")
        };
        if self.cache.bits() <= MAX_SPARE_TABLE_BITS {
            if self.sharing == Sharing::WithinBuild {
                self.cache.clear();
            }
            SPARE.set(Some(self));
        }
        root
    }
}

/// A direct-mapped table of `T`s, which notes its filled slots so that emptying it
/// visits only those.
struct Table<T> {
    slots: Vec<Option<T>>,
    filled: Vec<usize>,
}

impl<T> Table<T> {
    fn new(size: usize) -> Table<T> {
        Table {
            slots: std::iter::repeat_with(|| None).take(size).collect(),
            filled: Vec::new(),
        }
    }

    #[inline(always)]
    fn get(&self, index: usize) -> Option<&T> {
        self.slots[index].as_ref()
    }

    /// Puts `value` in slot `index`, in place of what it held.
    #[inline]
    fn insert(&mut self, index: usize, value: T) -> &T {
        let slot = &mut self.slots[index];
        if slot.is_none() {
            self.filled.push(index);
        }
        slot.insert(value)
    }

    fn clear(&mut self) {
        for index in self.filled.drain(..) {
            self.slots[index] = None;
        }
    }
}

struct GreenCache {
    /// One-byte tokens (`,`, ` `, `[`, `0`, `\n`), about half of all, by their byte:
    /// found without a key or a hash.
    bytes: Box<[Option<(SyntaxKind, GreenToken)>; 256]>,
    tokens: Table<(TokenKey, GreenToken)>,
    /// Nodes of shared children: a node is its own key (its kind and its children's
    /// identities), and it keeps the children alive, so an identity it holds cannot be
    /// reused by another element meanwhile.
    nodes: Table<GreenNode>,
    /// Nodes of one token, by the node's kind and the token's key (the token's, with
    /// the node's kind added).
    token_nodes: Table<(TokenKey, GreenNode)>,
    /// Subtrees of a fixed shape, by their kind and text (see [`GreenBuilder::subtree`]).
    subtrees: Table<(TokenKey, GreenNode)>,
    /// `64 - table bits`: a hash's top bits index the tables.
    shift: u32,
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
    children
        .iter()
        .fold(kind as u64, |hash, child| mix(hash, identity(child) as u64))
}

impl GreenCache {
    fn new(bits: u32) -> GreenCache {
        let size = 1 << bits;
        GreenCache {
            bytes: Box::new([const { None }; 256]),
            tokens: Table::new(size),
            nodes: Table::new(size),
            token_nodes: Table::new(size),
            subtrees: Table::new(size),
            shift: 64 - bits,
        }
    }

    fn bits(&self) -> u32 {
        64 - self.shift
    }

    /// Drops every element.
    fn clear(&mut self) {
        self.bytes.fill(None);
        self.tokens.clear();
        self.nodes.clear();
        self.token_nodes.clear();
        self.subtrees.clear();
    }

    /// The shared token of `kind` and `text[range]`; `None` if it is too long to share.
    #[inline(always)]
    fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) -> Option<GreenToken> {
        let bytes = &text.as_bytes()[range.clone()];
        if let [byte] = *bytes {
            return Some(match &self.bytes[usize::from(byte)] {
                Some((slot_kind, token)) if *slot_kind == kind => token.clone(),
                _ => self.new_byte_token(kind, text, range),
            });
        }
        let key = TokenKey::new(kind, text.as_bytes(), range.clone())?;
        let index = (key.hash() >> self.shift) as usize;
        Some(match self.tokens.get(index) {
            Some((slot_key, token))
                if *slot_key == key && (key.is_exact() || token.text().as_bytes() == bytes) =>
            {
                token.clone()
            }
            _ => self
                .tokens
                .insert(index, (key, new_token(kind, text, range)))
                .1
                .clone(),
        })
    }

    #[cold]
    #[inline(never)]
    fn new_byte_token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) -> GreenToken {
        let byte = text.as_bytes()[range.start];
        self.bytes[usize::from(byte)]
            .insert((kind, new_token(kind, text, range)))
            .1
            .clone()
    }

    /// The node of `kind` around the token of `token_kind` and `token_key`, `text[range]`.
    #[inline(always)]
    fn token_node(
        &mut self,
        kind: SyntaxKind,
        (token_kind, token_key): (SyntaxKind, TokenKey),
        text: &str,
        range: Range<usize>,
    ) -> GreenNode {
        let key = token_key.with_node_kind(kind);
        match self.token_nodes.get((key.hash() >> self.shift) as usize) {
            Some((slot_key, node)) if *slot_key == key => node.clone(),
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
        let token = self
            .token(token_kind, text, range)
            .expect("a token with a key is shared");
        let node = GreenNode::new(kind.into(), [token.into()]);
        self.token_nodes
            .insert((key.hash() >> self.shift) as usize, (key, node))
            .1
            .clone()
    }

    /// The shared node of `kind` made of `children[first..]`, all shared, which it takes.
    #[inline(always)]
    fn node(
        &mut self,
        kind: SyntaxKind,
        children: &mut Vec<GreenElement>,
        first: usize,
    ) -> GreenNode {
        let own = &children[first..];
        let index = (node_hash(kind, own) >> self.shift) as usize;
        match self.nodes.get(index) {
            Some(node) if node_is(node, kind, own) => {
                let node = node.clone();
                children.truncate(first);
                node
            }
            _ => self
                .nodes
                .insert(index, new_node(kind, children, first))
                .clone(),
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

/// A token's kind and text, packed in three words, for tokens short enough to share.
/// Up to [`EXACT_KEY_LEN`] bytes, the key is exact: with the length known, the first and
/// last eight bytes (overlapping when shorter) are the whole text, so equal keys are
/// equal tokens and comparing them reads no text. A longer text (a long mnemonic) is
/// digested, and a token found by its key is checked by its text.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct TokenKey {
    head: u64,
    tail: u64,
    kind_and_len: u64,
}

/// Longest text whose key is the text itself.
const EXACT_KEY_LEN: usize = 16;

impl TokenKey {
    /// The key of a token of `kind` and `text[range]`, if it is short enough to share.
    #[inline(always)]
    fn new(kind: SyntaxKind, text: &[u8], range: Range<usize>) -> Option<TokenKey> {
        let (start, end, len) = (range.start, range.end, range.len());
        let (head, tail) = match len {
            0..=8 => (short_word(text, range), 0),
            9..=EXACT_KEY_LEN => (
                read_u64(&text[start..start + 8]),
                read_u64(&text[end - 8..end]),
            ),
            17..=MAX_SHARED_TOKEN_LEN => digest(&text[range]),
            _ => return None,
        };
        Some(TokenKey {
            head,
            tail,
            kind_and_len: (kind as u64) << 32 | len as u64,
        })
    }

    /// Whether equal keys are equal tokens, without looking at their text.
    fn is_exact(&self) -> bool {
        (self.kind_and_len & 0xffff_ffff) as usize <= EXACT_KEY_LEN
    }

    /// One multiplication: the words are folded first, the tail turned so that a text's
    /// overlapping head and tail do not cancel out.
    fn hash(&self) -> u64 {
        mix(self.head ^ self.tail.rotate_left(32), self.kind_and_len)
    }

    /// The key of a node of `kind` around this token: the kind goes in the top bits,
    /// unused by a token's key.
    fn with_node_kind(self, kind: SyntaxKind) -> TokenKey {
        TokenKey {
            kind_and_len: self.kind_and_len | (kind as u64) << 48,
            ..self
        }
    }
}

/// Two words made of a text of 16 to 32 bytes: its first and last sixteen bytes.
#[inline(never)]
fn digest(text: &[u8]) -> (u64, u64) {
    let words = |at: usize| {
        mix(
            read_u64(&text[at..at + 8]),
            read_u64(&text[at + 8..at + 16]),
        )
    };
    (words(0), words(text.len() - 16))
}

/// `text[range]`, at most eight bytes, as a little-endian word: one load when eight
/// bytes follow its start, as they do but at the end of the text.
#[inline(always)]
fn short_word(text: &[u8], range: Range<usize>) -> u64 {
    let len = range.len() as u32;
    match text.get(range.start..range.start + 8) {
        Some(word) => read_u64(word) & u64::MAX.checked_shr(64 - 8 * len).unwrap_or(0),
        None => text[range]
            .iter()
            .rev()
            .fold(0, |word, &byte| word << 8 | u64::from(byte)),
    }
}

fn read_u64(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().unwrap())
}

/// One step of a multiplicative hash (as FxHash): the top bits depend on every input bit.
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95)
}
