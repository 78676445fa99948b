//! Instructions encoded by an earlier assembly of the same source, kept for the next
//! one (an editor assembles the whole source again after each edit, and most of its
//! instructions are the same syntax nodes as before: an incremental reparse keeps the
//! green nodes it does not touch, and equal statements share one green node).
//!
//! Only an encoding that depended on nothing but the node and the target is kept: no
//! symbol was asked for (value, branch target, register symbol) and nothing is left to
//! patch later. An entry keeps its node alive, so a node's address names it as long as
//! the entry stands. Entries are stamped with the last assembly that used them; when
//! the unused ones outnumber the used, they are dropped.

use std::sync::{Arc, Mutex};

use foldhash::HashMap;
use gcn_isa::encode::{Encoded, RegUses, Target, Words};
use gcn_syntax::GreenNode;

/// An instruction's green node, by address. Addresses are aligned: the hash must mix
/// their high bits into the low ones (foldhash does; FxHash does not, and its buckets
/// collided).
type Key = usize;

/// An encoding with nothing left to patch, for one node and target.
struct Entry {
    target: Target,
    _node: GreenNode,
    words: Words,
    regs: RegUses,
    row: Option<&'static gcn_isa::table::Instruction>,
    /// The last assembly that used it.
    used: u64,
}

/// The encodings kept, and which assembly is running.
#[derive(Default)]
pub struct EncodeCache {
    entries: HashMap<Key, Entry>,
    generation: u64,
    /// Entries the running assembly used or made.
    used: usize,
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
    /// one).
    pub(crate) fn take(&self) -> EncodeCache {
        let mut shared = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let mut cache = std::mem::take(&mut *shared);
        cache.generation += 1;
        cache.used = 0;
        cache
    }

    /// Keeps the cache for the next assembly, without the entries no longer used when
    /// they are the greater part.
    pub(crate) fn put_back(&self, mut cache: EncodeCache) {
        if cache.entries.len() > 2 * cache.used + 1024 {
            let generation = cache.generation;
            cache.entries.retain(|_, e| e.used == generation);
        }
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = cache;
    }
}

impl EncodeCache {
    fn key(node: &gcn_syntax::SyntaxNode) -> Key {
        &*node.green() as *const _ as usize
    }

    /// The encoding of `node` for `target`, if known.
    pub(crate) fn get(&mut self, node: &gcn_syntax::SyntaxNode, target: Target) -> Option<Encoded> {
        let entry = self
            .entries
            .get_mut(&Self::key(node))
            .filter(|e| e.target == target)?;
        if entry.used != self.generation {
            entry.used = self.generation;
            self.used += 1;
        }
        Some(Encoded {
            words: entry.words.clone(),
            fixups: Vec::new(),
            regs: entry.regs.clone(),
            warnings: Vec::new(),
            row: entry.row,
        })
    }

    /// Keeps an encoding that has no fixups and no warnings (a hit reports nothing).
    pub(crate) fn insert(
        &mut self,
        node: &gcn_syntax::SyntaxNode,
        target: Target,
        encoded: &Encoded,
    ) {
        debug_assert!(encoded.fixups.is_empty() && encoded.warnings.is_empty());
        let green = node.green().into_owned();
        let entry = Entry {
            target,
            _node: green,
            words: encoded.words.clone(),
            regs: encoded.regs.clone(),
            row: encoded.row,
            used: self.generation,
        };
        self.entries.insert(Self::key(node), entry);
        self.used += 1;
    }
}
