//! Symbols and scopes, searched as the reference does.
//!
//! Scopes form a tree under the global scope. A scope is searched first itself, then
//! through its `.using`s (the latest first, recursively, each scope once). A simple name
//! is searched from the current scope outwards through the open scopes' parents; a name
//! not found is created, undefined, in the current scope, so it can be defined later. A
//! path `a::b::x` starts at the innermost scope (outwards from the current one) where `a`
//! is found, creating missing scopes; `::a::x` starts at the global scope. A definition
//! (`x = 1`, `x:`) first looks in the current scope and its usings, then creates `x` in
//! the current scope.
//!
//! Besides named symbols the table holds anonymous ones: the pending definition of a
//! symbol whose expression waits for others (references made meanwhile are bound to that
//! definition, so a later reassignment does not change them), and internal helpers.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use gcn_isa::encode::RegRange;

use crate::expr::{Ir, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScopeId(pub u32);

pub const GLOBAL: ScopeId = ScopeId(0);

/// ELF-like binding set by `.global`, `.local`, `.weak`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Binding {
    #[default]
    Default,
    Global,
    Local,
    Weak,
}

#[derive(Debug, Clone, Default)]
pub struct Symbol {
    /// The name with its scope path (`ala::x`); empty for internal symbols.
    pub name: String,
    pub value: Option<Value>,
    /// Cannot be assigned again while defined (labels, `.equiv`, `.eqv`, `.enum`).
    pub once_defined: bool,
    pub is_label: bool,
    /// The pending definition this symbol waits for (`x = y + 1` with `y` undefined).
    pub def: Option<SymId>,
    /// For a pending definition: the named symbol it defines.
    pub owner: Option<SymId>,
    /// A register symbol (`x = %v[0:3]`, `x = %execz`, `x = %1`).
    pub register: Option<RegRange>,
    /// `.eqv`: the expression, with its symbols bound but not substituted; evaluated
    /// anew at each use.
    pub eqv: Option<Rc<Ir>>,
    pub binding: Binding,
    /// Where `.global`, `.local` or `.weak` last set the binding.
    pub binding_location: Option<crate::source::Location>,
    /// For a label, the section it was defined in: its value may be absolute (where a
    /// section's addresses are its offsets) while the reference keeps the section.
    pub label_section: Option<u32>,
    pub size: Option<u64>,
    /// Written to the output (false for internal symbols and closed temporary scopes).
    pub visible: bool,
    /// Pending fixups that reference this symbol.
    pub occurrences: Vec<u32>,
}

impl Symbol {
    /// Defined in the reference's sense: a value, an expression or a register.
    pub fn is_defined(&self) -> bool {
        self.value.is_some() || self.def.is_some() || self.register.is_some() || self.eqv.is_some()
    }
}

#[derive(Debug, Default)]
struct Scope {
    name: String,
    parent: Option<ScopeId>,
    temporary: bool,
    children: HashMap<String, ScopeId>,
    symbols: HashMap<String, SymId>,
    /// `.using`s, the latest last.
    usings: Vec<ScopeId>,
    enum_count: u64,
}

/// All symbols of an assembly, by scope.
#[derive(Debug)]
pub struct SymbolTable {
    symbols: Vec<Symbol>,
    scopes: Vec<Scope>,
    /// Open scopes, innermost last; the global scope is always first.
    stack: Vec<ScopeId>,
}

impl Default for SymbolTable {
    fn default() -> Self {
        SymbolTable {
            symbols: Vec::new(),
            scopes: vec![Scope::default()],
            stack: vec![GLOBAL],
        }
    }
}

/// Splits `a::b::x` into (`a::b::`, `x`); `::x` into (`::`, `x`); `x` into (``, `x`).
fn split_path(name: &str) -> (&str, &str) {
    let bytes = name.as_bytes();
    match (1..bytes.len())
        .rev()
        .find(|&i| bytes[i] == b':' && bytes[i - 1] == b':')
    {
        Some(i) => (&name[..i + 1], &name[i + 1..]),
        None => ("", name),
    }
}

impl SymbolTable {
    pub fn get(&self, id: SymId) -> &Symbol {
        &self.symbols[id.0 as usize]
    }

    pub fn get_mut(&mut self, id: SymId) -> &mut Symbol {
        &mut self.symbols[id.0 as usize]
    }

    pub fn value(&self, id: SymId) -> Option<Value> {
        self.get(id).value
    }

    pub fn len(&self) -> usize {
        self.symbols.len()
    }

    pub fn is_empty(&self) -> bool {
        self.symbols.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (SymId, &Symbol)> {
        self.symbols
            .iter()
            .enumerate()
            .map(|(i, s)| (SymId(i as u32), s))
    }

    fn current(&self) -> ScopeId {
        *self.stack.last().unwrap()
    }

    /// Nesting of open scopes (0 at the global scope).
    pub fn depth(&self) -> usize {
        self.stack.len() - 1
    }

    /// A symbol outside every scope (pending definitions, internal helpers).
    pub fn anonymous(&mut self, name: String) -> SymId {
        self.symbols.push(Symbol {
            name,
            ..Symbol::default()
        });
        SymId(self.symbols.len() as u32 - 1)
    }

    fn create_in(&mut self, scope: ScopeId, name: &str) -> SymId {
        let qualified = self.qualified(scope, name);
        let temporary = self.in_temporary(scope);
        self.symbols.push(Symbol {
            name: qualified,
            visible: !temporary,
            ..Symbol::default()
        });
        let id = SymId(self.symbols.len() as u32 - 1);
        self.scopes[scope.0 as usize]
            .symbols
            .insert(name.to_string(), id);
        id
    }

    fn in_temporary(&self, mut scope: ScopeId) -> bool {
        loop {
            let s = &self.scopes[scope.0 as usize];
            if s.temporary {
                return true;
            }
            match s.parent {
                Some(p) => scope = p,
                None => return false,
            }
        }
    }

    fn qualified(&self, scope: ScopeId, name: &str) -> String {
        if scope == GLOBAL {
            return name.to_string();
        }
        format!("{}::{name}", self.scope_path(scope))
    }

    /// A symbol of the global scope (`.`, local labels `1b`/`1f`), created if missing.
    pub fn global_symbol(&mut self, name: &str) -> SymId {
        match self.scopes[0].symbols.get(name) {
            Some(&id) => id,
            None => self.create_in(GLOBAL, name),
        }
    }

    /// A scope and then its usings (latest first, recursively), each scope once.
    fn search(
        &self,
        scope: ScopeId,
        visited: &mut HashSet<ScopeId>,
        find: &dyn Fn(&Scope) -> Option<u32>,
    ) -> Option<u32> {
        let s = &self.scopes[scope.0 as usize];
        if s.usings.is_empty() {
            // The common case: no set of visited scopes to keep.
            if visited.is_empty() {
                return find(s);
            }
            if visited.contains(&scope) {
                return None;
            }
            return find(s);
        }
        if !visited.insert(scope) {
            return None;
        }
        if let Some(found) = find(s) {
            return Some(found);
        }
        for &u in s.usings.iter().rev() {
            if let Some(found) = self.search(u, visited, find) {
                return Some(found);
            }
        }
        None
    }

    fn find_scope_in(
        &self,
        scope: ScopeId,
        name: &str,
        visited: &mut HashSet<ScopeId>,
    ) -> Option<ScopeId> {
        self.search(scope, visited, &|s| s.children.get(name).map(|c| c.0))
            .map(ScopeId)
    }

    fn find_symbol_in(
        &self,
        scope: ScopeId,
        name: &str,
        visited: &mut HashSet<ScopeId>,
    ) -> Option<SymId> {
        self.search(scope, visited, &|s| s.symbols.get(name).map(|c| c.0))
            .map(SymId)
    }

    /// The child scope `name` of `parent` (found through usings too), created if missing.
    fn get_scope(&mut self, parent: ScopeId, name: &str) -> ScopeId {
        if let Some(found) = self.find_scope_in(parent, name, &mut HashSet::new()) {
            return found;
        }
        let id = ScopeId(self.scopes.len() as u32);
        self.scopes.push(Scope {
            name: name.to_string(),
            parent: Some(parent),
            ..Scope::default()
        });
        self.scopes[parent.0 as usize]
            .children
            .insert(name.to_string(), id);
        id
    }

    /// The scope a path (`a::b::`, `::a::`, `` for none) names, created where missing.
    fn resolve_path(&mut self, path: &str) -> ScopeId {
        let (mut scope, rest) = match path.strip_prefix("::") {
            Some(rest) => (GLOBAL, rest),
            None => (self.current(), path),
        };
        let parts: Vec<&str> = rest.split("::").filter(|p| !p.is_empty()).collect();
        let Some(first) = parts.first() else {
            return scope;
        };
        let mut visited = HashSet::new();
        let mut s = Some(scope);
        while let Some(candidate) = s {
            if let Some(found) = self.find_scope_in(candidate, first, &mut visited) {
                scope = self.scopes[found.0 as usize].parent.unwrap_or(GLOBAL);
                break;
            }
            s = self.scopes[candidate.0 as usize].parent;
        }
        for part in parts {
            scope = self.get_scope(scope, part);
        }
        scope
    }

    /// Finds a symbol as a reference does; `Err(scope)` gives where to create it.
    fn find(&mut self, name: &str) -> Result<SymId, (ScopeId, String)> {
        let (path, simple) = split_path(name);
        let scope = self.resolve_path(path);
        let mut visited = HashSet::new();
        if let Some(id) = self.find_symbol_in(scope, simple, &mut visited) {
            return Ok(id);
        }
        if !path.is_empty() {
            return Err((scope, simple.to_string()));
        }
        let mut s = self.scopes[scope.0 as usize].parent;
        while let Some(candidate) = s {
            if let Some(id) = self.find_symbol_in(candidate, simple, &mut visited) {
                return Ok(id);
            }
            s = self.scopes[candidate.0 as usize].parent;
        }
        Err((self.current(), simple.to_string()))
    }

    /// The symbol a reference names, created undefined where it is not found.
    pub fn lookup(&mut self, name: &str) -> SymId {
        if name == "." {
            return self.global_symbol(".");
        }
        match self.find(name) {
            Ok(id) => id,
            Err((scope, simple)) => self.create_in(scope, &simple),
        }
    }

    /// The symbol a name refers to, if it exists (`.ifdef`, `.undef`, register names).
    pub fn find_existing(&mut self, name: &str) -> Option<SymId> {
        if name == "." {
            return Some(self.global_symbol("."));
        }
        // Finding may create scopes named by a path, as the reference does.
        self.find(name).ok()
    }

    /// The symbol a definition names: found in the path's (or current) scope and its
    /// usings, else created there.
    pub fn define_target(&mut self, name: &str) -> SymId {
        if name == "." {
            return self.global_symbol(".");
        }
        let (path, simple) = split_path(name);
        let scope = self.resolve_path(path);
        match self.find_symbol_in(scope, simple, &mut HashSet::new()) {
            Some(id) => id,
            None => self.create_in(scope, simple),
        }
    }

    /// `.scope [name]`: opens a named scope (reopening it if it exists) or a temporary one.
    pub fn open_scope(&mut self, name: Option<&str>) {
        let parent = self.current();
        let id = match name {
            Some(name) => self.get_scope(parent, name),
            None => {
                let id = ScopeId(self.scopes.len() as u32);
                self.scopes.push(Scope {
                    parent: Some(parent),
                    temporary: true,
                    ..Scope::default()
                });
                id
            }
        };
        self.stack.push(id);
    }

    /// `.ends`: false when only the global scope is open. A temporary scope is gone once
    /// closed: its symbols are returned so that the caller can report unresolved ones.
    pub fn close_scope(&mut self) -> Option<Vec<SymId>> {
        if self.stack.len() == 1 {
            return None;
        }
        let closed = self.stack.pop().unwrap();
        let mut gone = Vec::new();
        if self.scopes[closed.0 as usize].temporary {
            let mut work = vec![closed];
            while let Some(s) = work.pop() {
                let scope = &mut self.scopes[s.0 as usize];
                gone.extend(scope.symbols.drain().map(|(_, id)| id));
                work.extend(scope.children.drain().map(|(_, c)| c));
            }
        }
        Some(gone)
    }

    /// `.using path`: the latest using is searched first. Returns the scope's full path.
    pub fn using(&mut self, path: &str) -> String {
        let scope = self.resolve_path(&format!("{path}::"));
        let current = self.current();
        let usings = &mut self.scopes[current.0 as usize].usings;
        usings.retain(|&s| s != scope);
        usings.push(scope);
        self.scope_path(scope)
    }

    /// `.unusing [path]`: all usings of the current scope, or one (whose full path is
    /// returned).
    pub fn unusing(&mut self, path: Option<&str>) -> Option<String> {
        let current = self.current();
        match path {
            None => {
                self.scopes[current.0 as usize].usings.clear();
                None
            }
            Some(path) => {
                let scope = self.resolve_path(&format!("{path}::"));
                self.scopes[current.0 as usize]
                    .usings
                    .retain(|&s| s != scope);
                Some(self.scope_path(scope))
            }
        }
    }

    /// The full path of the current scope (`outer::inner`; empty for the global scope).
    pub fn current_path(&self) -> String {
        self.scope_path(self.current())
    }

    /// The full path of a scope; a temporary scope's part is empty.
    fn scope_path(&self, scope: ScopeId) -> String {
        let mut parts = Vec::new();
        let mut s = scope;
        while s != GLOBAL {
            let scope = &self.scopes[s.0 as usize];
            parts.push(scope.name.as_str());
            s = scope.parent.unwrap_or(GLOBAL);
        }
        parts.reverse();
        parts.join("::")
    }

    /// The enumeration counter of the current scope (`.enum`).
    pub fn enum_counter(&mut self) -> &mut u64 {
        let current = self.current();
        &mut self.scopes[current.0 as usize].enum_count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_searched_outwards_and_through_usings() {
        let mut t = SymbolTable::default();
        let g = t.define_target("x");
        t.open_scope(Some("a"));
        assert_eq!(t.lookup("x"), g);
        let ax = t.define_target("y");
        assert_eq!(t.get(ax).name, "a::y");
        t.close_scope();
        assert_eq!(t.lookup("a::y"), ax);
        t.using("a");
        assert_eq!(t.lookup("y"), ax);
        t.unusing(None);
        assert_ne!(t.lookup("y"), ax);
    }

    #[test]
    fn using_cycles_end() {
        let mut t = SymbolTable::default();
        t.open_scope(Some("l"));
        t.using("::l");
        let id = t.lookup("nobody");
        assert_eq!(t.get(id).name, "l::nobody");
    }

    #[test]
    fn temporary_scopes_vanish() {
        let mut t = SymbolTable::default();
        t.open_scope(None);
        let x = t.define_target("x");
        assert!(!t.get(x).visible);
        assert_eq!(t.close_scope(), Some(vec![x]));
        assert_ne!(t.lookup("x"), x);
        assert_eq!(t.close_scope(), None);
    }
}
