//! Symbols and scopes.
//!
//! Scopes form a tree under the global scope. A simple name is searched from the current
//! scope outwards, each scope before its `.using`s (last first); a name not found is
//! created, undefined, in the current scope, so it can be defined later. A path `a::b`
//! starts at the innermost scope that has `a`; `::a::b` starts at the global scope.

use std::collections::HashMap;

use gcn_isa::encode::RegRange;

use crate::expr::{Ir, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScopeId(pub u32);

pub const GLOBAL: ScopeId = ScopeId(0);

#[derive(Debug, Clone, Default)]
pub struct Symbol {
    pub name: String,
    pub value: Option<Value>,
    /// A label, or defined by `.equiv`: it can never be defined again.
    pub once_defined: bool,
    pub is_label: bool,
    /// Defined by an expression still waiting for other symbols.
    pub pending: Option<Ir>,
    /// A register symbol (`x = %v[0:3]`, `.regvar`).
    pub register: Option<RegRange>,
    /// `.eqv`: the expression is evaluated anew at each use.
    pub eqv: Option<gcn_syntax::ast::Expr>,
    pub global: bool,
    pub size: Option<i64>,
}

impl Symbol {
    pub fn is_defined(&self) -> bool {
        self.value.is_some() || self.pending.is_some() || self.register.is_some() || self.eqv.is_some()
    }
}

#[derive(Debug, Default)]
struct Scope {
    name: String,
    parent: Option<ScopeId>,
    temporary: bool,
    children: HashMap<String, ScopeId>,
    symbols: HashMap<String, SymId>,
    usings: Vec<ScopeId>,
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
        SymbolTable { symbols: Vec::new(), scopes: vec![Scope::default()], stack: vec![GLOBAL] }
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

    pub fn iter(&self) -> impl Iterator<Item = (SymId, &Symbol)> {
        self.symbols.iter().enumerate().map(|(i, s)| (SymId(i as u32), s))
    }

    fn current(&self) -> ScopeId {
        *self.stack.last().unwrap()
    }

    /// A symbol outside every scope (local-label targets).
    pub fn anonymous(&mut self, name: String) -> SymId {
        self.symbols.push(Symbol { name, ..Symbol::default() });
        SymId(self.symbols.len() as u32 - 1)
    }

    fn create_in(&mut self, scope: ScopeId, name: &str) -> SymId {
        let id = self.anonymous(self.qualified(scope, name));
        self.scopes[scope.0 as usize].symbols.insert(name.to_string(), id);
        id
    }

    fn qualified(&self, scope: ScopeId, name: &str) -> String {
        let mut parts = vec![name.to_string()];
        let mut s = scope;
        while s != GLOBAL {
            let scope = &self.scopes[s.0 as usize];
            parts.push(scope.name.clone());
            s = scope.parent.unwrap_or(GLOBAL);
        }
        parts.reverse();
        parts.join("::")
    }

    /// The symbol a reference names, created undefined where it is not found.
    pub fn lookup(&mut self, name: &str) -> SymId {
        if name == "." {
            return self.global_symbol(".");
        }
        match name.rsplit_once("::") {
            None => self.find_simple(name).unwrap_or_else(|| self.create_in(self.current(), name)),
            Some((path, simple)) => {
                let scope = self.resolve_path(path);
                self.find_in(scope, simple).unwrap_or_else(|| self.create_in(scope, simple))
            }
        }
    }

    /// The symbol a definition names: in the current scope (or the path's scope).
    pub fn define_target(&mut self, name: &str) -> SymId {
        if name == "." {
            return self.global_symbol(".");
        }
        let (scope, simple) = match name.rsplit_once("::") {
            None => (self.current(), name),
            Some((path, simple)) => (self.resolve_path(path), simple),
        };
        match self.scopes[scope.0 as usize].symbols.get(simple) {
            Some(&id) => id,
            None => self.create_in(scope, simple),
        }
    }

    fn global_symbol(&mut self, name: &str) -> SymId {
        match self.scopes[0].symbols.get(name) {
            Some(&id) => id,
            None => self.create_in(GLOBAL, name),
        }
    }

    fn find_in(&self, scope: ScopeId, name: &str) -> Option<SymId> {
        let s = &self.scopes[scope.0 as usize];
        if let Some(&id) = s.symbols.get(name) {
            return Some(id);
        }
        s.usings.iter().rev().find_map(|u| self.scopes[u.0 as usize].symbols.get(name).copied())
    }

    fn find_simple(&self, name: &str) -> Option<SymId> {
        self.stack.iter().rev().find_map(|&scope| self.find_in(scope, name))
    }

    /// The scope a path names, created where missing.
    fn resolve_path(&mut self, path: &str) -> ScopeId {
        let (mut scope, rest) = match path.strip_prefix("::") {
            Some(rest) => (GLOBAL, rest),
            None if path.is_empty() => (GLOBAL, ""),
            None => {
                let first = path.split("::").next().unwrap_or("");
                let start = self.stack.iter().rev().copied().find(|s| {
                    self.scopes[s.0 as usize].children.contains_key(first)
                });
                (start.unwrap_or(self.current()), path)
            }
        };
        for part in rest.split("::").filter(|p| !p.is_empty()) {
            scope = self.child_scope(scope, part);
        }
        scope
    }

    fn child_scope(&mut self, parent: ScopeId, name: &str) -> ScopeId {
        if let Some(&id) = self.scopes[parent.0 as usize].children.get(name) {
            return id;
        }
        let id = ScopeId(self.scopes.len() as u32);
        self.scopes.push(Scope { name: name.to_string(), parent: Some(parent), ..Scope::default() });
        self.scopes[parent.0 as usize].children.insert(name.to_string(), id);
        id
    }

    /// `.scope [name]`: opens a named scope (reopening it if it exists) or a temporary one.
    pub fn open_scope(&mut self, name: Option<&str>) {
        let parent = self.current();
        let id = match name {
            Some(name) => self.child_scope(parent, name),
            None => {
                let id = ScopeId(self.scopes.len() as u32);
                self.scopes.push(Scope { parent: Some(parent), temporary: true, ..Scope::default() });
                id
            }
        };
        self.stack.push(id);
    }

    /// `.ends`: false when only the global scope is open.
    pub fn close_scope(&mut self) -> bool {
        if self.stack.len() == 1 {
            return false;
        }
        let closed = self.stack.pop().unwrap();
        if self.scopes[closed.0 as usize].temporary {
            // A temporary scope is gone once closed: nothing can name it again.
            self.scopes[closed.0 as usize].symbols.clear();
        }
        true
    }

    /// `.using path`.
    pub fn using(&mut self, path: &str) {
        let scope = self.resolve_path(path);
        let current = self.current();
        self.scopes[current.0 as usize].usings.push(scope);
    }

    /// `.unusing [path]`: all usings of the current scope, or one.
    pub fn unusing(&mut self, path: Option<&str>) {
        let current = self.current();
        match path {
            None => self.scopes[current.0 as usize].usings.clear(),
            Some(path) => {
                let scope = self.resolve_path(path);
                self.scopes[current.0 as usize].usings.retain(|&s| s != scope);
            }
        }
    }
}
