//! Host methods for the component's `transfer` interface (`tasklists
//! export`, `tasklists import`): the text goes in and out as it is; the
//! component parses and writes every format.

use crate::bindings::{CallContext, Format, ImportRequest, Line, TransferReply};
use crate::component_host::Host;
use crate::error::HostError;

impl Host {
    /// List `list_id` written as `format`, as `ctx`'s agent sees it.
    pub fn export_list(
        &mut self,
        list_id: &str,
        format: Format,
        ctx: &CallContext,
    ) -> Result<TransferReply, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_transfer()
                .call_export_list(store, list_id, format, ctx)
        })
    }

    /// Imports `request.text` in one transaction (rolled back on a dry run).
    pub fn import_text(
        &mut self,
        request: &ImportRequest,
        ctx: &CallContext,
    ) -> Result<TransferReply, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_transfer()
                .call_import_text(store, request, ctx)
        })
    }

    /// The most bytes of text an import takes: a larger file is refused
    /// before it is read whole.
    pub fn max_import_bytes(&mut self) -> Result<u64, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_transfer()
                .call_max_import_bytes(store)
        })
    }

    /// The component's words for a file of `size` bytes past the bound.
    pub fn import_too_large(&mut self, file_name: &str, size: u64) -> Result<Vec<Line>, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_transfer()
                .call_too_large(store, file_name, size)
        })
    }
}
