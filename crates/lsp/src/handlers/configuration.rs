//! The editor's settings: `initializationOptions` at `initialize`, then
//! `workspace/didChangeConfiguration` (`{"settings": {...}}` or
//! `{"settings": {"gcn": {...}}}`), as a `gcn_ide::Settings`. A change analyses every
//! open document again.

use serde_json::Value;
use tower_lsp::lsp_types::MessageType;

use crate::handlers::diagnostics;
use crate::server::Server;

/// The settings in `value`, itself or under `gcn`; an error message for a malformed one.
pub fn parse(value: &Value) -> Result<Option<gcn_ide::Settings>, String> {
    let value = value.get("gcn").unwrap_or(value);
    if value.is_null() {
        return Ok(None);
    }
    serde_json::from_value(value.clone())
        .map(Some)
        .map_err(|e| format!("gcn: bad settings ({e}); the previous ones stay"))
}

pub async fn did_change_configuration(server: &Server, settings: Value) {
    match parse(&settings) {
        Ok(Some(settings)) => {
            *server.state.settings.lock().unwrap() = settings;
            diagnostics::reanalyse_all(server);
        }
        Ok(None) => {}
        Err(message) => {
            server
                .client
                .show_message(MessageType::ERROR, message)
                .await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn checks_are_on_unless_turned_off() {
        let on = parse(&json!({ "gcn": { "args": ["-g", "Tonga"] } }))
            .unwrap()
            .unwrap();
        assert!(on.checks.waitcnt);
        let off = parse(&json!({ "gcn": { "checks": { "waitcnt": false } } }))
            .unwrap()
            .unwrap();
        assert!(!off.checks.waitcnt);
        assert!(off.checks.nops, "each check is turned off on its own");
        let nops_off = parse(&json!({ "checks": { "nops": false } }))
            .unwrap()
            .unwrap();
        assert!(nops_off.checks.waitcnt && !nops_off.checks.nops);
        assert!(on.checks.uninitialized);
        let uninitialized_off = parse(&json!({ "checks": { "uninitialized": false } }))
            .unwrap()
            .unwrap();
        assert!(!uninitialized_off.checks.uninitialized && uninitialized_off.checks.nops);
        assert!(parse(&json!({ "checks": { "waitcnt": "no" } })).is_err());
    }
}
