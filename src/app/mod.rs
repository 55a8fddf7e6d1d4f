//! The companion window (eframe/egui): set a game up, watch the table through the camera with
//! the legal spots and the live score drawn over it, and fix what the camera got wrong.
//!
//! The window only draws: the camera, vision, the tracker and the journal run in the
//! [`worker`] thread, which hands over the newest picture and game view.

mod correction;
pub mod enrol;
mod lens;
mod live;
mod overlay;
mod scoreboard;
pub mod setup;
pub mod table;
pub mod worker;

use std::path::PathBuf;
use std::sync::Arc;

use eframe::egui;

use live::Live;
use setup::SetupForm;
use table::TableView;

/// How the window starts.
#[derive(Clone, Debug, Default)]
pub struct AppConfig {
    /// Continue the game in this journal at once.
    pub resume: Option<PathBuf>,
    /// Start a game at once with the setup form as it is (e.g. the simulated table).
    pub start_at_once: bool,
    /// Where new journals go; the user's data folder if `None`.
    pub journal_dir: Option<PathBuf>,
    /// Playback speed of recorded and simulated sources (1 = real time).
    pub speed: Option<f64>,
    /// Save a screenshot of the window here once `screenshot_turns` turns are on the table,
    /// then close.
    pub screenshot: Option<PathBuf>,
    /// Turns to wait for before the screenshot.
    pub screenshot_turns: usize,
    /// Setup to use instead of the remembered one.
    pub form: Option<SetupForm>,
    /// The tile in hand at the start (its legal spots are drawn).
    pub hand: Option<String>,
}

/// Opens the window and runs until it is closed.
pub fn run_window(config: AppConfig) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("meeplecam")
            .with_inner_size([1440.0, 900.0]),
        ..Default::default()
    };
    eframe::run_native(
        "meeplecam",
        options,
        Box::new(move |cc| Ok(Box::new(MeeplecamApp::new(cc, config)))),
    )
    .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}

/// The whole application state the window keeps.
pub struct MeeplecamApp {
    config: AppConfig,
    form: SetupForm,
    live: Option<Live>,
    /// The meeple colour enrolment, while it runs.
    enrol: Option<enrol::Wizard>,
    /// An error to show on the setup screen.
    message: Option<String>,
}

const FORM_KEY: &str = "meeplecam.setup";

impl MeeplecamApp {
    /// The app as eframe creates it (remembered settings restored).
    pub fn new(cc: &eframe::CreationContext<'_>, config: AppConfig) -> MeeplecamApp {
        let remembered = cc
            .storage
            .and_then(|s| eframe::get_value::<SetupForm>(s, FORM_KEY));
        MeeplecamApp::with_form(
            config.form.clone().or(remembered).unwrap_or_default(),
            config,
        )
    }

    /// The app with a given setup form (tests use this).
    pub fn with_form(form: SetupForm, config: AppConfig) -> MeeplecamApp {
        MeeplecamApp {
            config,
            form,
            live: None,
            enrol: None,
            message: None,
        }
    }

    /// Whether a game is running.
    pub fn in_game(&self) -> bool {
        self.live.is_some()
    }

    /// The setup as the players filled it in (enrolled colours included).
    pub fn form(&self) -> &SetupForm {
        &self.form
    }

    /// The game on screen, if one is running.
    pub fn table(&self) -> Option<Arc<TableView>> {
        self.live.as_ref().map(Live::table)
    }

    /// The folder new journals go to.
    fn journal_dir(&self) -> PathBuf {
        self.config
            .journal_dir
            .clone()
            .unwrap_or_else(setup::default_journal_dir)
    }

    fn start(&mut self, ctx: &egui::Context, resume: Option<PathBuf>) {
        let dir = self.journal_dir();
        match Live::start(&self.form, resume, &dir, self.config.speed, ctx) {
            Ok(mut live) => {
                if let Some(tile) = &self.config.hand {
                    live.hold(tile);
                }
                self.live = Some(live);
                self.message = None;
            }
            Err(e) => self.message = Some(format!("{e:#}")),
        }
    }

    /// Draws one frame of the window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if self.live.is_none() {
            if let Some(path) = self.config.resume.take() {
                self.start(&ctx, Some(path));
            } else if std::mem::take(&mut self.config.start_at_once) {
                self.start(&ctx, None);
            }
        }
        match &mut self.live {
            Some(live) => {
                if live.show(ui, self.form.patterns) {
                    self.live = None;
                }
                if let (Some(path), Some(live)) = (&self.config.screenshot, &mut self.live) {
                    live.screenshot_when_ready(&ctx, path, self.config.screenshot_turns);
                }
            }
            None if self.enrol.is_some() => {
                if let Some(wizard) = &mut self.enrol {
                    if enrol::show(ui, wizard, &mut self.form) {
                        self.enrol = None;
                        ctx.request_repaint();
                    }
                }
            }
            None => {
                let dir = self.journal_dir();
                match setup::show(ui, &mut self.form, &dir, self.message.as_deref()) {
                    Some(setup::Choice::Start) => self.start(&ctx, None),
                    Some(setup::Choice::Resume(path)) => self.start(&ctx, Some(path)),
                    Some(setup::Choice::Enrol) => {
                        self.enrol = Some(enrol::Wizard::start(self.form.source_spec(), &ctx));
                    }
                    None => {}
                }
            }
        }
    }
}

impl eframe::App for MeeplecamApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, FORM_KEY, &self.form);
    }
}
