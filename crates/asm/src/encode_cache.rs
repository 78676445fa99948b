//! Instructions encoded by an earlier assembly of the same source, kept for the next
//! one (an editor assembles the whole source again after each edit, and most of its
//! instructions are the same syntax nodes as before: an incremental reparse keeps the
//! green nodes it does not touch, and equal statements share one green node).
//!
//! Only an encoding that depended on nothing but the node and the target is kept: no
//! symbol was asked for (value, branch target, register symbol) and nothing is left to
//! patch later. Each assembly keeps the entries it used or made; the rest are dropped.

use std::sync::{Arc, Mutex};

use foldhash::HashMap;

use gcn_isa::encode::{Encoded, RegUses, Target, Words};
use gcn_syntax::GreenNode;

/// An instruction's green node, by address (kept alive by its entry). Addresses are
/// aligned: the hash must mix their high bits into the low ones (foldhash does; FxHash
/// does not, and its buckets collided).
type Key = usize;

/// An encoding with nothing left to patch: the target it is for, the node, its words
/// and register uses.
type Entry = (Target, GreenNode, Words, RegUses);

/// The encodings of one assembly and of the one before.
#[derive(Default)]
pub struct EncodeCache {
    previous: HashMap<Key, Entry>,
    current: HashMap<Key, Entry>,
}

/// A cache shared by the successive assemblies of one source.
#[derive(Clone, Default)]
pub struct SharedEncodeCache(pub Arc<Mutex<EncodeCache>>);

impl std::fmt::Debug for SharedEncodeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedEncodeCache")
    }
}

impl SharedEncodeCache {
    /// The cache for a new assembly (another assembly running meanwhile gets an empty
    /// one): what the last assembly used or made.
    pub(crate) fn take(&self) -> EncodeCache {
        let mut shared = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let last = std::mem::take(&mut *shared);
        EncodeCache { previous: last.current, current: HashMap::default() }
    }

    /// Keeps what this assembly used or made, for the next.
    pub(crate) fn put_back(&self, cache: EncodeCache) {
        let mut shared = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *shared = EncodeCache { previous: HashMap::default(), current: cache.current };
    }
}

impl EncodeCache {
    fn key(node: &gcn_syntax::SyntaxNode) -> (Key, GreenNode) {
        let green = node.green().into_owned();
        (&*green as *const _ as usize, green)
    }

    /// The encoding of `node` for `target`, if known.
    pub(crate) fn get(&mut self, node: &gcn_syntax::SyntaxNode, target: Target) -> Option<Encoded> {
        let (key, _) = Self::key(node);
        let encoded = |(_, _, words, regs): &Entry| Encoded { words: words.clone(), fixups: Vec::new(), regs: regs.clone() };
        if let Some(entry) = self.current.get(&key) {
            return (entry.0 == target).then(|| encoded(entry));
        }
        let entry = self.previous.remove(&key).filter(|e| e.0 == target)?;
        let found = encoded(&entry);
        self.current.insert(key, entry);
        Some(found)
    }

    /// Keeps an encoding that has no fixups.
    pub(crate) fn insert(&mut self, node: &gcn_syntax::SyntaxNode, target: Target, encoded: &Encoded) {
        debug_assert!(encoded.fixups.is_empty());
        let (key, green) = Self::key(node);
        self.current.insert(key, (target, green, encoded.words.clone(), encoded.regs.clone()));
    }
}
