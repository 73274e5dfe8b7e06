//! The notifier (`tasklists notify`, and `tasklists serve` with a
//! `--notify-*` flag): each new entry of the person's inbox sent once on
//! every channel, a webhook ([`webhook`]: a signed JSON POST) or the
//! desktop ([`desktop`]). The component decides what is new on a channel,
//! words each notice and builds the webhook's JSON (`ui.notices`), and
//! records what was delivered (`ui.notices-sent`) in the store, so a
//! notifier restarted sends nothing twice; this module only looks every
//! interval, delivers, and reports back. It reaches the host through the
//! serving modes' one actor ([`crate::serve::actor`]).

mod desktop;
mod signature;
mod webhook;

use crate::serve::actor::{Actor, Unanswered};
use desktop::Desktop;
use std::collections::HashSet;
use std::time::Duration;
use tasklists_host::{CallContext, Notice, render_ansi};
use tokio::task::JoinSet;
use webhook::Webhook;

/// The desktop's channel name.
const DESKTOP: &str = "desktop";

/// What to notify on, checked before anything starts.
#[derive(Clone)]
pub(crate) struct Plan {
    webhooks: Vec<Webhook>,
    desktop: bool,
    interval: Duration,
    board_url: Option<String>,
}

// By hand: a webhook's URL and secret are never printed.
impl std::fmt::Debug for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("webhooks", &self.webhooks.len())
            .field("desktop", &self.desktop)
            .field("interval", &self.interval)
            .finish_non_exhaustive()
    }
}

impl Plan {
    /// The plan for `webhooks` (signed with `secret`), the desktop if
    /// `desktop`, looking every `interval`, links starting at
    /// `board_url`; none when no channel is asked for; why not when a
    /// webhook cannot be used (no secret, not a URL to POST to) or this
    /// build has no desktop notifications.
    pub(crate) fn new(
        webhooks: &[String],
        secret: Option<&str>,
        desktop: bool,
        interval: Duration,
        board_url: Option<String>,
    ) -> Result<Option<Plan>, String> {
        if webhooks.is_empty() && !desktop {
            return Ok(None);
        }
        if desktop && !desktop::BUILT_IN {
            return Err(desktop::NOT_BUILT_IN.into());
        }
        let mut hooks: Vec<Webhook> = Vec::new();
        if !webhooks.is_empty() {
            let secret = secret.filter(|s| !s.is_empty()).ok_or(
                "--notify-webhook needs a secret to sign its POSTs with: set TASKLISTS_NOTIFY_SECRET (or pass --notify-secret SECRET, which other users may see in the process list)",
            )?;
            for url in webhooks {
                let hook = Webhook::new(url, secret)?;
                // The same URL twice is one channel: sent once.
                if !hooks.iter().any(|h| h.channel() == hook.channel()) {
                    hooks.push(hook);
                }
            }
        }
        Ok(Some(Plan {
            webhooks: hooks,
            desktop,
            interval,
            board_url: board_url.filter(|u| !u.is_empty()),
        }))
    }

    /// Where the links start, if given.
    pub(crate) fn board_url(&self) -> Option<&str> {
        self.board_url.as_deref()
    }
}

/// Follows the inbox as `ctx` sees it, through `actor`, sending each new
/// entry on every channel of `plan`, with links starting at `board_url`
/// (`""`: no links). Returns only when no channel is left (the desktop's
/// service did not answer, and there is no webhook).
pub(crate) async fn run(actor: Actor, ctx: CallContext, plan: Plan, board_url: String) {
    tracing::info!(
        "notifier: sending new inbox entries to {} (looking every {} s)",
        channels_said(&plan),
        plan.interval.as_secs()
    );
    let mut channels = JoinSet::new();
    for hook in plan.webhooks {
        let follow = Follow {
            actor: actor.clone(),
            ctx: ctx.clone(),
            board_url: board_url.clone(),
            interval: plan.interval,
        };
        channels.spawn(follow.run(Channel::Webhook(hook)));
    }
    if plan.desktop {
        let follow = Follow {
            actor,
            ctx,
            board_url,
            interval: plan.interval,
        };
        channels.spawn(async move {
            match Desktop::connect().await {
                Ok(desktop) => follow.run(Channel::Desktop(desktop)).await,
                Err(why) => tracing::warn!(
                    "--notify-desktop: no notification service answers ({why}); going on without desktop notifications"
                ),
            }
        });
    }
    while channels.join_next().await.is_some() {}
}

/// `1 webhook and the desktop`.
fn channels_said(plan: &Plan) -> String {
    let hooks = match plan.webhooks.len() {
        0 => None,
        1 => Some("1 webhook".to_string()),
        n => Some(format!("{n} webhooks")),
    };
    match (hooks, plan.desktop) {
        (Some(hooks), true) => format!("{hooks} and the desktop"),
        (Some(hooks), false) => hooks,
        (None, _) => "the desktop".into(),
    }
}

/// Where a notice goes.
enum Channel {
    Webhook(Webhook),
    Desktop(Desktop),
}

impl Channel {
    /// The name its notices are recorded under.
    fn name(&self) -> &str {
        match self {
            Channel::Webhook(hook) => hook.channel(),
            Channel::Desktop(_) => DESKTOP,
        }
    }

    /// What the log calls it.
    fn kind(&self) -> &'static str {
        match self {
            Channel::Webhook(_) => "webhook",
            Channel::Desktop(_) => "desktop",
        }
    }

    /// Delivers `notice`; why not.
    async fn deliver(&self, notice: &Notice) -> Result<(), String> {
        match self {
            Channel::Webhook(hook) => hook.deliver(&notice.key, &notice.payload).await,
            Channel::Desktop(desktop) => desktop.show(&notice.title, &notice.body).await,
        }
    }
}

/// What one channel's loop needs.
struct Follow {
    actor: Actor,
    ctx: CallContext,
    board_url: String,
    interval: Duration,
}

impl Follow {
    /// Every interval: the entries not yet sent on `channel`, oldest
    /// first, each delivered then recorded. An entry given up on is left
    /// unrecorded, so the next start tries it again, and skipped until
    /// then; one delivered but not recorded (the store refused the write)
    /// is recorded at the next look, never sent twice meanwhile.
    async fn run(self, channel: Channel) {
        let name = channel.name().to_string();
        let mut given_up: HashSet<String> = HashSet::new();
        let mut unrecorded: Vec<String> = Vec::new();
        // The last failure to read the inbox, said once until it changes.
        let mut trouble: Option<String> = None;
        loop {
            if !unrecorded.is_empty() && self.record(&name, unrecorded.clone()).await.is_ok() {
                unrecorded.clear();
            }
            match self.pending(&name).await {
                Ok(notices) => {
                    if trouble.take().is_some() {
                        tracing::info!(
                            "notifier ({}): the inbox can be read again",
                            channel.kind()
                        );
                    }
                    for notice in notices {
                        if given_up.contains(&notice.key) || unrecorded.contains(&notice.key) {
                            continue;
                        }
                        let about = about(&notice);
                        match channel.deliver(&notice).await {
                            Ok(()) => {
                                tracing::info!("notified {}: {about}", channel.kind());
                                if let Err(why) = self.record(&name, vec![notice.key.clone()]).await
                                {
                                    tracing::warn!(
                                        "notified {} but could not record it ({why}): {about}; recording it again at the next look",
                                        channel.kind()
                                    );
                                    unrecorded.push(notice.key);
                                }
                            }
                            Err(why) => {
                                tracing::warn!(
                                    "could not notify {}: {about}: {why}; not tried again until the notifier restarts",
                                    channel.kind()
                                );
                                given_up.insert(notice.key);
                            }
                        }
                    }
                }
                Err(why) => {
                    if trouble.as_deref() != Some(why.as_str()) {
                        tracing::warn!(
                            "notifier ({}): cannot read the inbox: {why}",
                            channel.kind()
                        );
                        trouble = Some(why);
                    }
                }
            }
            tokio::time::sleep(self.interval).await;
        }
    }

    /// The notices not yet sent on `channel`; the component's words when
    /// it refuses.
    async fn pending(&self, channel: &str) -> Result<Vec<Notice>, String> {
        let (ctx, channel, board) = (
            self.ctx.clone(),
            channel.to_string(),
            self.board_url.clone(),
        );
        let answer = self
            .actor
            .run(move |host| {
                Ok(match host.notices(&ctx, &channel, &board)? {
                    Ok(notices) => Ok(notices),
                    Err(e) => Err(render_ansi(&host.render_error(&e)?, false)),
                })
            })
            .await;
        match answer {
            Ok(result) => result.map_err(|text| one_line(&text)),
            // The board is busy: look again next time.
            Err(Unanswered::Busy) => Ok(Vec::new()),
            Err(Unanswered::Failed(why)) => Err(why),
        }
    }

    /// Records `keys` as sent on `channel`.
    async fn record(&self, channel: &str, keys: Vec<String>) -> Result<(), String> {
        let (ctx, channel) = (self.ctx.clone(), channel.to_string());
        let answer = self
            .actor
            .run(move |host| {
                Ok(match host.notices_sent(&ctx, &channel, &keys)? {
                    Ok(()) => Ok(()),
                    Err(e) => Err(render_ansi(&host.render_error(&e)?, false)),
                })
            })
            .await;
        match answer {
            Ok(result) => result.map_err(|text| one_line(&text)),
            Err(Unanswered::Busy) => Err("the host is busy".into()),
            Err(Unanswered::Failed(why)) => Err(why),
        }
    }
}

/// A notice in a log line: `question task_… (question:task_…:…)`, read
/// from its payload.
fn about(notice: &Notice) -> String {
    let payload: serde_json::Value = serde_json::from_str(&notice.payload).unwrap_or_default();
    let kind = payload["kind"].as_str().unwrap_or("entry");
    let subject = payload["task_id"]
        .as_str()
        .or_else(|| payload["list_id"].as_str())
        .unwrap_or("?");
    format!("{kind} {subject} ({})", notice.key)
}

/// A rendered text's lines on one log line.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
