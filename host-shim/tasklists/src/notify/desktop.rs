//! Desktop notifications: the freedesktop notification service on the
//! session's D-Bus (notify-rust over zbus, feature `desktop`). Its calls
//! block, so they run on a thread of their own, one at a time; a service
//! that stops answering holds up only this channel, for [`SHOW`] each.

// A build without the feature keeps the type (the notifier names it) but
// never makes one.
#![cfg_attr(not(feature = "desktop"), allow(dead_code))]

use std::time::Duration;
use tokio::sync::oneshot;

/// Whether this build has desktop notifications.
pub(crate) const BUILT_IN: bool = cfg!(feature = "desktop");

/// Why `--notify-desktop` is refused by a build without them.
pub(crate) const NOT_BUILT_IN: &str = "--notify-desktop: desktop notifications are not built in (this tasklists was built without its `desktop` feature)";

/// How long the service may take to say what it supports.
#[cfg(feature = "desktop")]
const PROBE: Duration = Duration::from_secs(5);
/// How long the service may take to show one notification.
const SHOW: Duration = Duration::from_secs(10);

/// A notification to show, and where to say whether it was.
type Job = (String, String, oneshot::Sender<Result<(), String>>);

/// The notification service, reached from its thread.
pub(crate) struct Desktop {
    jobs: std::sync::mpsc::Sender<Job>,
    /// The service reads markup in a body (its `body-markup`
    /// capability): a body's `&`, `<` and `>` are then escaped, so an
    /// agent's text shows as written and never as a link or a style.
    markup: bool,
}

impl Desktop {
    /// The session's notification service, once it has answered; why not
    /// (no session bus, no service on it, no answer in time).
    #[cfg(feature = "desktop")]
    pub(crate) async fn connect() -> Result<Desktop, String> {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let (ready, answered) = oneshot::channel();
        // zbus runs its own runtime inside these blocking calls: they may
        // not run on a task of the notifier's runtime.
        std::thread::Builder::new()
            .name("tasklists-desktop".into())
            .spawn(move || {
                let probe = notify_rust::get_capabilities()
                    .map(|caps| caps.iter().any(|c| c == "body-markup"))
                    .map_err(|e| e.to_string());
                let up = probe.is_ok();
                let _ = ready.send(probe);
                if !up {
                    return;
                }
                for (title, body, done) in queue {
                    let shown = notify_rust::Notification::new()
                        .appname("tasklists")
                        .summary(&title)
                        .body(&body)
                        .show()
                        .map(drop)
                        .map_err(|e| e.to_string());
                    let _ = done.send(shown);
                }
            })
            .map_err(|e| format!("cannot start its thread: {e}"))?;
        let markup = match tokio::time::timeout(PROBE, answered).await {
            Ok(Ok(probe)) => probe?,
            Ok(Err(_)) => return Err("its thread stopped".into()),
            Err(_) => {
                return Err(format!(
                    "the notification service did not answer within {} s",
                    PROBE.as_secs()
                ));
            }
        };
        Ok(Desktop { jobs, markup })
    }

    /// Without the `desktop` feature: never (the flag is refused before).
    #[cfg(not(feature = "desktop"))]
    pub(crate) async fn connect() -> Result<Desktop, String> {
        Err(NOT_BUILT_IN.into())
    }

    /// Shows a notification: `title` as its summary, `body` below it.
    pub(crate) async fn show(&self, title: &str, body: &str) -> Result<(), String> {
        let body = if self.markup {
            escape(body)
        } else {
            body.to_string()
        };
        let (done, shown) = oneshot::channel();
        self.jobs
            .send((title.to_string(), body, done))
            .map_err(|_| "the notification thread stopped".to_string())?;
        match tokio::time::timeout(SHOW, shown).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err("the notification thread stopped".into()),
            Err(_) => Err(format!(
                "the notification service did not answer within {} s",
                SHOW.as_secs()
            )),
        }
    }
}

/// `text` with the characters a notification body's markup reads escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_in_a_body_is_shown_as_written() {
        assert_eq!(
            escape("<a href=\"x\">go</a> & <b>"),
            "&lt;a href=\"x\"&gt;go&lt;/a&gt; &amp; &lt;b&gt;"
        );
    }
}
