//! What is on the other end of a freshly opened port: wait for an Adalight board's `"Ada\n"`
//! (boards reset when the port opens), else ask `v` to find WLED and `{"v":true}` for its LED
//! count. Silence, garbage and half replies end in a decision by the deadlines, never a hang.

use std::borrow::Cow;
use std::io;
use std::time::{Duration, Instant};

use serialport::SerialPort;

use super::adalight;
use super::wled::{self, WledInfo};

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProtocolChoice {
    /// WLED's JSON API when WLED answers with its LED count, Adalight otherwise.
    #[default]
    Auto,
    /// Always Adalight, without waiting for a greeting or asking anything (a frame lost while
    /// the board boots is made good by the keep-alive).
    Adalight,
    /// WLED's JSON API; a device that does not answer as WLED is an error.
    Wled,
}

/// The protocol in use on a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Adalight frames, re-sent as a keep-alive.
    Adalight,
    /// WLED's JSON API, sending only the LEDs that change.
    WledJson,
}

/// What the handshake learnt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// The device greeted with `"Ada\n"`.
    pub greeted: bool,
    /// The device answered as WLED.
    pub wled: Option<WledInfo>,
    /// The protocol to speak.
    pub protocol: Protocol,
}

/// Why the handshake failed.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// Reading or writing the port failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// WLED was asked for but the device did not answer as WLED.
    #[error("the device did not answer as WLED (no reply to 'v')")]
    NotWled,
    /// The caller gave up.
    #[error("cancelled")]
    Cancelled,
}

/// The most bytes kept while looking for a reply; older ones are dropped.
const KEEP: usize = 64 * 1024;

/// Finds out what the device speaks. Waits up to `boot_wait` for the greeting and up to
/// `reply_timeout` for each reply; `cancelled` is checked every few milliseconds.
pub fn handshake(
    port: &mut dyn SerialPort,
    choice: ProtocolChoice,
    boot_wait: Duration,
    reply_timeout: Duration,
    cancelled: &dyn Fn() -> bool,
) -> Result<Handshake, ProbeError> {
    let mut found = Handshake {
        greeted: false,
        wled: None,
        protocol: Protocol::Adalight,
    };
    if choice == ProtocolChoice::Adalight {
        return Ok(found);
    }
    let mut buf = Vec::new();
    found.greeted = gather(port, boot_wait, cancelled, &mut buf, |b| {
        contains(b, adalight::GREETING).then_some(())
    })?
    .is_some();
    if found.greeted && choice == ProtocolChoice::Auto {
        return Ok(found);
    }

    buf.clear();
    port.write_all(wled::VERSION_QUERY)?;
    let version = gather(port, reply_timeout, cancelled, &mut buf, |b| {
        complete_lines(b).find_map(|l| wled::parse_version(&l))
    })?;
    let Some(version) = version else {
        return match choice {
            ProtocolChoice::Wled => Err(ProbeError::NotWled),
            _ => Ok(found),
        };
    };

    buf.clear();
    port.write_all(wled::INFO_QUERY)?;
    let info = gather(port, reply_timeout, cancelled, &mut buf, |b| {
        complete_lines(b).find_map(|l| {
            // Noise may precede the object on its line.
            l.match_indices('{')
                .find_map(|(at, _)| wled::parse_info(&l[at..]).ok())
        })
    })?;
    let (leds, matrix) = info.unzip();
    found.wled = Some(WledInfo {
        version,
        leds,
        matrix: matrix.flatten(),
    });
    // Without the LED count the JSON API is a guess; Adalight works on every WLED.
    if leds.is_some() || choice == ProtocolChoice::Wled {
        found.protocol = Protocol::WledJson;
    }
    Ok(found)
}

/// Reads into `buf` until `found` recognises something in it or `wait` has passed.
fn gather<T>(
    port: &mut dyn SerialPort,
    wait: Duration,
    cancelled: &dyn Fn() -> bool,
    buf: &mut Vec<u8>,
    mut found: impl FnMut(&[u8]) -> Option<T>,
) -> Result<Option<T>, ProbeError> {
    let deadline = Instant::now() + wait;
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(t) = found(buf) {
            return Ok(Some(t));
        }
        if cancelled() {
            return Err(ProbeError::Cancelled);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Ok(None);
        }
        port.set_timeout(left.min(Duration::from_millis(20)))
            .map_err(io::Error::from)?;
        match port.read(&mut chunk) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::UnexpectedEof).into()),
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > KEEP {
                    buf.drain(..buf.len() - KEEP);
                }
            }
            Err(e) if quiet(&e) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// Whether a read error only means that nothing arrived.
pub(crate) fn quiet(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
    )
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// The lines of `buf` that are complete (end in a newline), as text.
fn complete_lines(buf: &[u8]) -> impl Iterator<Item = Cow<'_, str>> {
    let end = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    buf[..end]
        .split(|&b| b == b'\n')
        .map(String::from_utf8_lossy)
}
