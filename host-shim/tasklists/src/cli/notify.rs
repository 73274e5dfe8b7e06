//! `tasklists notify`: the notifier on its own, for a person without a
//! board: each new inbox entry sent once to a webhook and/or the desktop
//! until Ctrl-C or SIGTERM (exit 0), on a host actor of its own as
//! `serve` runs one. [`plan`] reads the flags both commands share.

use super::args::NotifyArgs;
use super::{Failure, Globals};
use crate::error::ServerError;
use crate::notify::{self, Plan};
use crate::serve::{actor, signals::stopped};
use std::time::Duration;
use tasklists_host::{Host, HostConfig};

/// The environment variable holding a webhook's secret.
const SECRET_ENV: &str = "TASKLISTS_NOTIFY_SECRET";

/// The notifier the flags ask for (none without a channel); a usage
/// error when it cannot run as asked.
pub(crate) fn plan(args: &NotifyArgs) -> Result<Option<Plan>, Failure> {
    // Read here rather than by clap, so that an empty variable is unset.
    let secret = args
        .notify_secret
        .clone()
        .or_else(|| std::env::var(SECRET_ENV).ok());
    Plan::new(
        &args.notify_webhook,
        secret.as_deref(),
        args.notify_desktop,
        Duration::from_secs(args.notify_interval),
        args.board_url.clone(),
    )
    .map_err(Failure::Usage)
}

/// Runs the notifier until Ctrl-C or SIGTERM.
pub(crate) fn run(globals: &Globals, args: &NotifyArgs) -> Result<(), Failure> {
    let plan = plan(args)?.ok_or_else(|| {
        Failure::Usage(
            "notify needs somewhere to send: --notify-webhook URL (with a secret: TASKLISTS_NOTIFY_SECRET or --notify-secret) and/or --notify-desktop".into(),
        )
    })?;
    let config = HostConfig::new(globals.location()?);
    // Its store is opened on the first look at the inbox.
    let host = Host::open_lazily(config.clone())?;
    crate::logging::init();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServerError::Notify(format!("cannot start its runtime: {e}")))?;
    let (actor, _thread) = actor::start(
        host,
        config,
        globals.ctx.clone(),
        actor::Shape::Shared(1),
        || {},
    )
    .map_err(|e| ServerError::Notify(format!("cannot start the host's thread: {e}")))?;
    let ctx = globals.ctx.clone();
    // Without a board, links only where the person names one.
    let board_url = plan.board_url().unwrap_or_default().to_string();
    runtime.block_on(async move {
        tokio::select! {
            () = stopped() => Ok(()),
            () = notify::run(actor, ctx, plan, board_url) => Err(Failure::Usage(
                "nothing left to notify on (see the warning above)".into(),
            )),
        }
    })
}
