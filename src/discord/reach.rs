//! Why a request never reached Discord, in words a person understands: the host it was for
//! (`discord.com`, or `DISCORD_API_BASE`'s), and what stood in the way, read from the error's
//! chain of causes (serenity's error, reqwest's, hyper-util's, the socket's `io::Error`).
//!
//! serenity says only "Error while sending HTTP request." of all of them, which tells someone
//! starting the bot on a machine without a network nothing about what to fix.

use std::error::Error as StdError;
use std::fmt;
use std::io;

use poise::serenity_prelude as serenity;
use serenity::http::HttpError;

/// What stood between the bot and the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Obstacle {
    /// DNS did not resolve the host's name: no network, or a name that does not exist.
    NameNotResolved,
    /// Nothing listens at the host's port.
    ConnectionRefused,
    /// No answer within the request's time limit.
    TimedOut,
    /// No route to the host: the network is down or the host unreachable.
    NoRoute,
    /// The connection was closed or reset before an answer came.
    ConnectionClosed,
    /// The TLS handshake failed; why, as the TLS library says it.
    Tls(String),
}

impl fmt::Display for Obstacle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Obstacle::NameNotResolved => f.write_str("name not resolved"),
            Obstacle::ConnectionRefused => f.write_str("connection refused"),
            Obstacle::TimedOut => f.write_str("timed out"),
            Obstacle::NoRoute => f.write_str("network unreachable"),
            Obstacle::ConnectionClosed => f.write_str("connection closed"),
            Obstacle::Tls(why) => write!(f, "TLS failed: {why}"),
        }
    }
}

/// A request that never reached its host: `cannot reach discord.com (name not resolved)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Unreached {
    /// The host, with its port when the URL names one.
    pub host: String,
    pub obstacle: Obstacle,
}

impl fmt::Display for Unreached {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot reach {} ({})", self.host, self.obstacle)
    }
}

impl StdError for Unreached {}

/// Why `e` never reached its host, if that is what went wrong (and not, say, Discord's refusal).
pub(super) fn unreached(e: &serenity::Error) -> Option<Unreached> {
    let serenity::Error::Http(HttpError::Request(request)) = e else {
        return None;
    };
    let url = request.url()?;
    let host = match (url.host_str(), url.port()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        (None, _) => return None,
    };
    // A connection made and then lost is not "cannot reach": its causes say more as they are.
    let connecting = request.is_connect().then(|| obstacle(request)).flatten();
    let obstacle = connecting.or_else(|| request.is_timeout().then_some(Obstacle::TimedOut))?;
    Some(Unreached { host, obstacle })
}

/// The first of `e`'s causes that says what stood in the way.
fn obstacle(e: &(dyn StdError + 'static)) -> Option<Obstacle> {
    e.source().and_then(obstacle_from)
}

/// What `e`, or the first of its causes that says, says stood in the way.
fn obstacle_from(e: &(dyn StdError + 'static)) -> Option<Obstacle> {
    // hyper-util's connector wraps a failed lookup as a `ConnectError` whose whole text is this
    // (its type is private); the lookup's own `io::Error` has no kind to tell it by.
    if e.to_string() == "dns error" {
        return Some(Obstacle::NameNotResolved);
    }
    if let Some(io) = e.downcast_ref::<io::Error>() {
        if let Some(found) = io_obstacle(io) {
            return Some(found);
        }
        // An `io::Error`'s `source()` skips the error it wraps, which may be another `io::Error`
        // that says more: hyper-rustls wraps tokio-rustls's failed handshake so.
        if let Some(found) = io.get_ref().and_then(|inner| obstacle_from(inner)) {
            return Some(found);
        }
    }
    e.source().and_then(obstacle_from)
}

/// What a socket's error says stood in the way.
fn io_obstacle(e: &io::Error) -> Option<Obstacle> {
    use io::ErrorKind as K;
    Some(match e.kind() {
        K::ConnectionRefused => Obstacle::ConnectionRefused,
        K::TimedOut => Obstacle::TimedOut,
        K::NetworkUnreachable | K::HostUnreachable | K::NetworkDown => Obstacle::NoRoute,
        K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof => {
            Obstacle::ConnectionClosed
        }
        // tokio-rustls hands a failed handshake on as `InvalidData` around rustls's error.
        K::InvalidData => Obstacle::Tls(
            e.get_ref()
                .map_or_else(|| e.to_string(), ToString::to_string),
        ),
        _ => return None,
    })
}

/// `e` with its causes on one line, each said once: serenity's text for a failed request says
/// nothing of why ("Error while sending HTTP request."), its causes do.
pub(super) fn with_causes(e: &(dyn StdError + 'static)) -> String {
    let mut line = e.to_string();
    let mut cause = e.source();
    while let Some(e) = cause {
        let text = e.to_string();
        if !line.ends_with(&text) {
            line = format!("{line}: {text}");
        }
        cause = e.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error with a text and a cause, as the layers of a failed request are.
    #[derive(Debug)]
    struct Layer(&'static str, Option<Box<dyn StdError + Send + Sync>>);

    impl fmt::Display for Layer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl StdError for Layer {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }

    fn request_failing(cause: Box<dyn StdError + Send + Sync>) -> Layer {
        Layer(
            "error sending request",
            Some(Box::new(Layer("client error (Connect)", Some(cause)))),
        )
    }

    #[test]
    fn the_obstacle_is_read_from_the_causes() {
        let lookup = io::Error::other("failed to lookup address information");
        let dns = request_failing(Box::new(Layer("dns error", Some(Box::new(lookup)))));
        assert_eq!(obstacle(&dns), Some(Obstacle::NameNotResolved));
        for (kind, found) in [
            (
                io::ErrorKind::ConnectionRefused,
                Obstacle::ConnectionRefused,
            ),
            (io::ErrorKind::TimedOut, Obstacle::TimedOut),
            (io::ErrorKind::NetworkUnreachable, Obstacle::NoRoute),
            (io::ErrorKind::ConnectionReset, Obstacle::ConnectionClosed),
        ] {
            let tcp = Layer("tcp connect error", Some(Box::new(io::Error::from(kind))));
            assert_eq!(obstacle(&request_failing(Box::new(tcp))), Some(found));
        }
        let tls = io::Error::new(
            io::ErrorKind::InvalidData,
            Layer("invalid peer certificate", None),
        );
        assert_eq!(
            obstacle(&request_failing(Box::new(io::Error::other(tls)))),
            Some(Obstacle::Tls("invalid peer certificate".into()))
        );
        let other = io::Error::other("something else");
        assert_eq!(obstacle(&request_failing(Box::new(other))), None);
    }

    #[test]
    fn causes_are_said_once_each() {
        let e = Layer(
            "cannot start: disk full",
            Some(Box::new(Layer("disk full", None))),
        );
        assert_eq!(with_causes(&e), "cannot start: disk full");
        let e = request_failing(Box::new(io::Error::other("boom")));
        assert_eq!(
            with_causes(&e),
            "error sending request: client error (Connect): boom"
        );
        let shown = Unreached {
            host: "discord.com".into(),
            obstacle: Obstacle::NameNotResolved,
        };
        assert_eq!(
            shown.to_string(),
            "cannot reach discord.com (name not resolved)"
        );
    }
}
