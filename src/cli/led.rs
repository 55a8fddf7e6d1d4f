//! `meeplecam led`: the game (or a test pattern) on an LED matrix or strip over USB serial.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use clap::{ArgGroup, Args, ValueEnum};

use meeplecam::led::discover::{self, SerialConnector, Target};
use meeplecam::led::layout::{Corner, Edge, Matrix, Wiring};
use meeplecam::led::probe::Handshake;
use meeplecam::led::{
    self, Config, Display, Layout, LinkState, Protocol, ProtocolChoice, Scene, Shape, Timing,
};
use meeplecam::rules::Rotation;

use super::input::load;
use super::Failure;

/// Arguments of `meeplecam led`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("show").args(["test_pattern", "record"])))]
pub struct LedArgs {
    /// List the serial ports (with USB vendor:product:serial) and exit.
    #[arg(long, conflicts_with_all = ["port", "show"])]
    list: bool,
    /// The device: a port name (/dev/ttyUSB0), or VID:PID[:SERIAL] in hex. A USB device is found
    /// again by its identity after being unplugged.
    #[arg(long, required_unless_present = "list", requires = "show")]
    port: Option<String>,
    /// Show the test pattern: corners red, green, blue, white clockwise from the top left, and
    /// a yellow dot walking the rows.
    #[arg(long)]
    test_pattern: bool,
    /// Show the game after this record (or JCloisterZone .jcz file).
    #[arg(long)]
    record: Option<PathBuf>,
    /// The tile in hand: its legal cells blink in the current player's colour.
    #[arg(long, requires = "record")]
    tile: Option<String>,
    /// Leave the game open: skip end-of-game scoring.
    #[arg(long, requires = "record")]
    open: bool,
    /// Layout file (see calibration/led-*.toml); default: a 16×16 serpentine panel.
    #[arg(long)]
    layout: Option<PathBuf>,
    /// Baud rate.
    #[arg(long, default_value_t = 115_200)]
    baud: u32,
    /// Protocol: WLED's JSON API when WLED answers (auto), or always Adalight or WLED.
    #[arg(long, value_enum, default_value_t = Proto::Auto)]
    protocol: Proto,
    /// Stop after this many seconds (default: run until Ctrl-C); the LEDs go black either way.
    #[arg(long)]
    seconds: Option<f64>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Proto {
    Auto,
    Adalight,
    Wled,
}

pub fn run(args: LedArgs) -> Result<(), Failure> {
    if args.list {
        return list();
    }
    let layout = match &args.layout {
        Some(path) => Layout::load(path).map_err(|e| Failure::BadInput(e.into()))?,
        None => Layout::default(),
    };
    let content = Content::new(&args)?;
    let run_for = args
        .seconds
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| Failure::BadInput(anyhow!("bad --seconds {s}")))
        })
        .transpose()?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed))
            .context("cannot catch Ctrl-C")?;
    }
    let display = open(&args, &layout)?;

    let started = Instant::now();
    let mut next = started;
    let mut state = display.state();
    let mut tick = 0;
    loop {
        display.show(content.frame(&layout, tick));
        tick += 1;
        next += content.tick();
        while Instant::now() < next {
            if stop.load(Ordering::Relaxed) || run_for.is_some_and(|d| started.elapsed() >= d) {
                let stats = display.stats();
                drop(display); // black
                println!("sent {} frames ({} bytes)", stats.frames, stats.bytes);
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(10));
            let now = display.state();
            if now != state {
                eprintln!("{now}");
                state = now;
            }
        }
    }
}

/// Starts the display and waits for the first connection; an error if the device cannot be
/// opened.
fn open(args: &LedArgs, layout: &Layout) -> Result<Display, Failure> {
    let port = args.port.as_deref().unwrap_or_default();
    let timing = Timing::default();
    let display = Display::start(
        Box::new(SerialConnector {
            target: Target::resolve(port),
            baud: args.baud,
        }),
        Config {
            leds: layout.len(),
            protocol: match args.protocol {
                Proto::Auto => ProtocolChoice::Auto,
                Proto::Adalight => ProtocolChoice::Adalight,
                Proto::Wled => ProtocolChoice::Wled,
            },
            timing,
        },
    );
    let first_try = timing.boot_wait + 2 * timing.reply_timeout + Duration::from_secs(1);
    let state = display.wait_until(first_try, |s| !matches!(s, LinkState::Connecting));
    match &state {
        LinkState::Connected { handshake, .. } => {
            eprintln!("{state}");
            if let Some(warning) = mismatch(handshake, layout) {
                eprintln!("warning: {warning}");
            }
            Ok(display)
        }
        LinkState::Retrying { error, .. } => Err(Failure::Other(anyhow!(
            "cannot open the LED device: {error}"
        ))),
        _ => Err(Failure::Other(anyhow!("{port}: no answer"))),
    }
}

/// What does not fit between the device and the layout, if anything.
fn mismatch(handshake: &Handshake, layout: &Layout) -> Option<String> {
    let wled = handshake.wled.as_ref()?;
    if let Some(n) = wled.leds.filter(|&n| n < layout.len()) {
        return Some(format!(
            "the device has {n} LEDs but the layout {}",
            layout.len()
        ));
    }
    let (w, h) = wled.matrix?;
    let row_major = Shape::Matrix(Matrix {
        width: w,
        height: h,
        wiring: Wiring::Progressive,
        origin: Corner::TopLeft,
        rotation: Rotation::R0,
        scores: Edge::None,
    });
    let matches = match layout.shape {
        Shape::Matrix(m) => {
            Shape::Matrix(Matrix {
                scores: Edge::None,
                ..m
            }) == row_major
        }
        Shape::Strip(_) => false,
    };
    (handshake.protocol == Protocol::WledJson && !matches).then(|| {
        format!(
            "WLED is set up as a {w}×{h} matrix and numbers LEDs row by row from the top left \
             through its JSON API: use a layout with width = {w}, height = {h}, wiring = \
             \"progressive\", origin = \"top-left\", rotation = 0"
        )
    })
}

/// What the LEDs show.
enum Content {
    Pattern,
    Game(Scene),
}

impl Content {
    fn new(args: &LedArgs) -> Result<Content, Failure> {
        let Some(path) = &args.record else {
            return Ok(Content::Pattern);
        };
        let loaded = load(path, args.open)?;
        let game = &loaded.replay.game;
        let in_hand = match &args.tile {
            None => None,
            Some(name) => {
                let id = game
                    .catalogue()
                    .tile_id(name)
                    .ok_or_else(|| Failure::BadInput(anyhow!("unknown tile {name:?}")))?;
                if game.remaining(id) == 0 {
                    return Err(Failure::BadInput(anyhow!(
                        "no tile {name} is left in the box"
                    )));
                }
                Some(id)
            }
        };
        Ok(Content::Game(Scene::new(
            game,
            &loaded.replay.colours,
            in_hand,
        )))
    }

    /// How long one tick lasts: a pattern step, or half a blink.
    fn tick(&self) -> Duration {
        match self {
            Content::Pattern => Duration::from_millis(100),
            Content::Game(_) => Duration::from_millis(500),
        }
    }

    fn frame(&self, layout: &Layout, tick: u64) -> Vec<led::Rgb> {
        match self {
            Content::Pattern => led::test_pattern(layout, tick),
            Content::Game(scene) => led::render(scene, layout, tick),
        }
    }
}

fn list() -> Result<(), Failure> {
    let ports = discover::list().context("cannot list serial ports")?;
    if ports.is_empty() {
        println!("no serial ports found");
    }
    for p in ports {
        match p.usb {
            Some(u) => {
                let about: Vec<String> =
                    [u.manufacturer, u.product].into_iter().flatten().collect();
                println!("{}  usb {}  {}", p.name, u.id, about.join(" "));
            }
            None => println!("{}", p.name),
        }
    }
    Ok(())
}
