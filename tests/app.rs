//! The companion app's parts: undo and corrections in the tracker, a webcam that is pulled out
//! mid-game, and the window driven by its accessibility labels (egui_kittest).
#![cfg(feature = "app")]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use opencv::core::{Mat, Scalar, Vector, CV_8UC3};

use meeplecam::app::setup::{SetupForm, SourceKind};
use meeplecam::app::{AppConfig, MeeplecamApp};
use meeplecam::camera::webcam::{Connector, Grabber, Link, Webcam};
use meeplecam::camera::{FrameSource, Simulated};
use meeplecam::record::journal::Journal;
use meeplecam::record::selfplay::random_record;
use meeplecam::record::{Record, TurnEntry};
use meeplecam::rules::{Pos, RuleOptions};
use meeplecam::sim::game::film_game;
use meeplecam::track::session::Session;
use meeplecam::track::Tracker;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeplecam-app-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A legal 3-player game whose second turn puts a follower down.
fn game_with_follower_on_turn_2(turns: usize) -> Record {
    (1..)
        .map(|seed| random_record("base", 3, RuleOptions::default(), seed).unwrap())
        .find(|r| r.turns[1].follower.is_some() && r.turns[..turns].iter().all(|t| !t.discard))
        .map(|mut r| {
            r.turns.truncate(turns);
            r
        })
        .unwrap()
}

fn placed(turns: &[TurnEntry]) -> Vec<(String, Option<Pos>, Option<u16>)> {
    turns
        .iter()
        .map(|t| (t.tile.clone(), t.at, t.rot))
        .collect()
}

#[test]
fn undo_and_corrections_rebuild_the_game_and_refuse_what_breaks_the_rules() {
    let r = game_with_follower_on_turn_2(8);
    let mut tracker = Tracker::new(r.players.clone(), None).unwrap();
    tracker.restore(r.turns.clone()).unwrap();
    assert_eq!(tracker.turns(), r.turns);
    let truth = r.replay_open().unwrap();
    assert_eq!(tracker.game().scores(), truth.game.scores());
    // The last turn stays open: its player may still put a follower down.
    assert!(tracker.game().tile_laid());

    let undone = tracker.undo().unwrap().unwrap();
    assert_eq!(undone, r.turns[7]);
    assert_eq!(tracker.turns(), r.turns[..7].to_vec());
    assert!(tracker.game().board().get(r.turns[7].at.unwrap()).is_none());

    // Laying turn 3's tile on the start tile's cell is refused, and nothing changes.
    let mut wrong = r.turns[2].clone();
    wrong.at = Some(Pos::new(0, 0));
    assert!(tracker.correct(2, wrong).is_err());
    assert_eq!(tracker.turns(), r.turns[..7].to_vec());

    // Taking turn 2's follower off is legal: the rules engine agrees with a replay.
    let mut fixed = r.turns[1].clone();
    fixed.follower = None;
    tracker.correct(1, fixed.clone()).unwrap();
    let mut want = r.clone();
    want.turns.truncate(7);
    want.turns[1] = fixed;
    assert_eq!(tracker.turns(), want.turns);
    assert_eq!(
        tracker.game().scores(),
        want.replay_open().unwrap().game.scores()
    );
}

/// A camera that serves a filmed game, is pulled out once, and is missing for two tries.
struct FlakyCamera {
    film: Arc<Mutex<Simulated>>,
    served: Arc<AtomicUsize>,
    unplug_at: usize,
    unplugged: Arc<AtomicBool>,
    missing_tries: Arc<AtomicUsize>,
    film_over: Arc<AtomicBool>,
}

struct FlakyGrabber {
    film: Arc<Mutex<Simulated>>,
    served: Arc<AtomicUsize>,
    unplug_at: usize,
    unplugged: Arc<AtomicBool>,
    film_over: Arc<AtomicBool>,
}

impl Grabber for FlakyGrabber {
    fn grab(&mut self) -> anyhow::Result<Mat> {
        std::thread::sleep(Duration::from_millis(4));
        if self.served.load(Ordering::SeqCst) == self.unplug_at
            && !self.unplugged.swap(true, Ordering::SeqCst)
        {
            anyhow::bail!("No such device (os error 19)");
        }
        match self.film.lock().unwrap().next_frame()? {
            Some(frame) => {
                self.served.fetch_add(1, Ordering::SeqCst);
                Ok(frame.image)
            }
            None => {
                self.film_over.store(true, Ordering::SeqCst);
                anyhow::bail!("end of the film")
            }
        }
    }
}

impl Connector for FlakyCamera {
    fn connect(&mut self) -> anyhow::Result<Box<dyn Grabber>> {
        if self.unplugged.load(Ordering::SeqCst)
            && self.missing_tries.fetch_add(1, Ordering::SeqCst) < 2
        {
            anyhow::bail!("no camera found (0 listed)");
        }
        Ok(Box::new(FlakyGrabber {
            film: Arc::clone(&self.film),
            served: Arc::clone(&self.served),
            unplug_at: self.unplug_at,
            unplugged: Arc::clone(&self.unplugged),
            film_over: Arc::clone(&self.film_over),
        }))
    }

    fn describe(&self) -> String {
        "flaky test camera".into()
    }
}

#[test]
fn pulling_the_webcam_mid_game_loses_no_committed_turn() {
    let game = film_game(21, 14, 5.0).unwrap();
    let frames = Arc::new(Mutex::new(game.source));
    let film_over = Arc::new(AtomicBool::new(false));
    let unplugged = Arc::new(AtomicBool::new(false));
    let camera = FlakyCamera {
        film: frames,
        served: Arc::new(AtomicUsize::new(0)),
        unplug_at: 120,
        unplugged: Arc::clone(&unplugged),
        missing_tries: Arc::new(AtomicUsize::new(0)),
        film_over: Arc::clone(&film_over),
    };
    let dir = scratch("unplug");
    let journal = dir.join("g.journal");
    let mut session = Session::start(game.record.players.clone(), None, Some(&journal)).unwrap();
    let mut webcam = Webcam::start(camera);
    let mut before_unplug: Option<Vec<TurnEntry>> = None;
    let mut outage_messages = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(240);
    while !film_over.load(Ordering::SeqCst) && Instant::now() < deadline {
        match webcam.next_frame() {
            Ok(Some(frame)) => {
                // The stand-in plays a 5 frames/s film as fast as it can: its frames' wall-clock
                // times say nothing about the table, so the tracker counts frames instead.
                session.feed(&frame.image, None).unwrap();
            }
            Ok(None) => unreachable!("a webcam never ends"),
            Err(e) => {
                if before_unplug.is_none() && unplugged.load(Ordering::SeqCst) {
                    before_unplug = Some(session.tracker().turns());
                }
                outage_messages.push(format!("{e:#}"));
            }
        }
    }
    assert!(
        film_over.load(Ordering::SeqCst),
        "the film played to its end"
    );
    let before = before_unplug.expect("the camera was pulled out");
    assert!(
        outage_messages
            .iter()
            .any(|m| m.contains("lost") && m.contains("reconnecting")),
        "{outage_messages:?}"
    );
    let after = session.tracker().turns();
    assert!(
        before.len() >= 2,
        "turns were committed before the unplug: {}",
        before.len()
    );
    assert!(
        after.len() > before.len(),
        "tracking went on after the camera came back"
    );
    // Every turn closed before the unplug is still there as it was; the open one (its tile may
    // be read again in a later still picture) is still in its cell.
    let closed = before.len() - 1;
    assert_eq!(placed(&after[..closed]), placed(&before[..closed]));
    assert_eq!(after[closed].at, before[closed].at);
    // And the journal says the same.
    drop(session);
    let (_, resumed) = Journal::resume(&journal).unwrap();
    assert_eq!(resumed.record.turns, after);
    drop(webcam);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_webcam_that_never_appears_reports_itself_lost_and_keeps_trying() {
    struct Absent(Arc<AtomicUsize>);
    impl Connector for Absent {
        fn connect(&mut self) -> anyhow::Result<Box<dyn Grabber>> {
            self.0.fetch_add(1, Ordering::SeqCst);
            anyhow::bail!("no camera found (0 listed)")
        }
        fn describe(&self) -> String {
            "absent camera".into()
        }
    }
    let tries = Arc::new(AtomicUsize::new(0));
    let mut webcam = Webcam::start(Absent(Arc::clone(&tries)));
    let started = Instant::now();
    let mut errors = 0;
    while started.elapsed() < Duration::from_millis(3500) {
        let e = webcam
            .next_frame()
            .err()
            .expect("no frames from an absent camera");
        assert!(format!("{e:#}").contains("absent camera"), "{e:#}");
        errors += 1;
    }
    assert!(matches!(webcam.link(), Link::Lost(_)));
    assert!(
        errors >= 3,
        "next_frame returns while waiting ({errors} answers)"
    );
    assert!(tries.load(Ordering::SeqCst) >= 2, "it retried");
    drop(webcam); // and stops promptly
}

/// A folder with one plain picture: a source that never shows a change.
fn still_folder(dir: &Path) -> PathBuf {
    let folder = dir.join("frames");
    std::fs::create_dir_all(&folder).unwrap();
    let image =
        Mat::new_rows_cols_with_default(120, 160, CV_8UC3, Scalar::new(90.0, 60.0, 40.0, 0.0))
            .unwrap();
    let name = folder.join("0001.png");
    assert!(opencv::imgcodecs::imwrite(name.to_str().unwrap(), &image, &Vector::new()).unwrap());
    folder
}

/// What a node says (egui labels carry their text as the accessible value or label).
fn text_of(node: &egui_kittest::Node<'_>) -> String {
    let n = node.accesskit_node();
    n.label().or_else(|| n.value()).unwrap_or_default()
}

/// Steps the window until `done` holds (the worker answers asynchronously).
fn step_until(
    harness: &mut Harness<'_, MeeplecamApp>,
    what: &str,
    done: impl Fn(&Harness<'_, MeeplecamApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done(harness) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn window(app: MeeplecamApp) -> Harness<'static, MeeplecamApp> {
    Harness::builder()
        .with_size(eframe::egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, app: &mut MeeplecamApp| app.show(ui), app)
}

#[test]
fn setup_screen_adds_and_removes_players_and_starts_a_game() {
    let dir = scratch("setup");
    let frames = still_folder(&dir);
    let form = SetupForm {
        source: SourceKind::File,
        ..SetupForm::default()
    };
    let config = AppConfig {
        journal_dir: Some(dir.join("journals")),
        ..AppConfig::default()
    };
    let mut harness = window(MeeplecamApp::with_form(form, config));
    harness.run();
    assert!(harness.query_by_label("Player 3 name").is_none());
    harness.get_by_label("Add player").click();
    harness.run();
    assert!(harness.query_by_label("Player 3 name").is_some());
    harness.get_by_label("Remove player 3").click();
    harness.run();
    assert!(harness.query_by_label("Player 3 name").is_none());

    // No video yet: starting explains why it cannot.
    harness.get_by_label("Start game").click();
    harness.run();
    assert!(!harness.state().in_game());
    assert!(harness.query_by_label_contains("no video file").is_some());

    harness.get_by_label("Path of the video or folder").focus();
    harness.run();
    harness
        .get_by_label("Path of the video or folder")
        .type_text(frames.to_str().unwrap());
    harness.run();
    harness.get_by_label("Start game").click();
    harness.step();
    assert!(harness.state().in_game());
    step_until(&mut harness, "the game screen", |h| {
        h.query_by_label("Undo last turn").is_some()
    });
    assert!(harness
        .query_by_label_contains("Looking for the start tile")
        .is_some());
    // A journal was started for the new game.
    let journals = std::fs::read_dir(dir.join("journals")).unwrap().count();
    assert!(journals >= 1);
    drop(harness);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn undo_and_correction_from_the_window_reach_the_journal() {
    let dir = scratch("undo");
    let frames = still_folder(&dir);
    let r = game_with_follower_on_turn_2(3);
    let journal = dir.join("g.journal");
    let mut j = Journal::create(&journal, &r).unwrap();
    j.sync(&r.turns).unwrap();
    drop(j);
    let form = SetupForm {
        source: SourceKind::File,
        file: frames.display().to_string(),
        ..SetupForm::default()
    };
    let config = AppConfig {
        resume: Some(journal.clone()),
        journal_dir: Some(dir.clone()),
        ..AppConfig::default()
    };
    let mut harness = window(MeeplecamApp::with_form(form, config));
    step_until(&mut harness, "the resumed turns", |h| {
        h.query_by_label("Fix turn 3").is_some()
    });

    harness.get_by_label("Undo last turn").click();
    step_until(&mut harness, "the undo", |h| {
        h.query_by_label("Fix turn 3").is_none()
    });
    let (_, resumed) = Journal::resume(&journal).unwrap();
    assert_eq!(resumed.record.turns, r.turns[..2].to_vec());

    assert!(harness
        .query_by_label_contains("Turn 2:")
        .map(|n| text_of(&n))
        .unwrap()
        .contains("follower on"));
    harness.get_by_label("Fix turn 2").click();
    harness.step();
    harness.step();
    harness.get_by_label("Follower").click();
    harness.step();
    harness.step();
    harness.get_by_label("no follower").click();
    harness.step();
    harness.get_by_label("Apply correction").click();
    step_until(&mut harness, "the correction", |h| {
        h.query_by_label_contains("Turn 2:")
            .map(|n| text_of(&n))
            .is_some_and(|l| !l.contains("follower on"))
    });
    let (_, resumed) = Journal::resume(&journal).unwrap();
    assert_eq!(resumed.record.turns.len(), 2);
    assert_eq!(resumed.record.turns[1].follower, None);
    assert_eq!(placed(&resumed.record.turns), placed(&r.turns[..2]));
    drop(harness);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Ann (red) and Bob (blue), and a table registered with the start tile seen as the square
/// (600, 300)–(700, 400) of a 1280×720 picture.
fn ann_and_bob_over_a_square_start() -> (
    Vec<meeplecam::record::PlayerEntry>,
    meeplecam::vision::calibration::Calibration,
) {
    let players = [
        ("Ann", meeplecam::rules::Colour::Red),
        ("Bob", meeplecam::rules::Colour::Blue),
    ]
    .map(|(name, colour)| meeplecam::record::PlayerEntry {
        name: name.to_string(),
        colour,
    })
    .to_vec();
    let calibration = meeplecam::vision::calibration::Calibration {
        size: [1280, 720],
        start: [
            [600.0, 300.0],
            [700.0, 300.0],
            [700.0, 400.0],
            [600.0, 400.0],
        ],
        table: [[0.0; 3]; 2],
        colours: meeplecam::vision::colours::ColourModel::default(),
    };
    (players, calibration)
}

#[test]
fn the_held_feature_under_the_mouse_covers_every_tile_it_runs_over() {
    use meeplecam::app::table::TableView;
    use meeplecam::record::FollowerEntry;
    use meeplecam::rules::Figure;

    let (players, calibration) = ann_and_bob_over_a_square_start();
    let mut tracker = Tracker::new(players, Some(calibration)).unwrap();
    // Ann lays a straight road east of the start tile, continuing its road, and stands on it.
    let mut turn = TurnEntry::laid("U", Pos::new(1, 0), 0);
    turn.follower = Some(FollowerEntry {
        port: "E".to_string(),
        figure: Figure::Normal,
    });
    tracker.restore(vec![turn]).unwrap();
    let view = TableView::of(&tracker, None);

    assert_eq!(view.owned.len(), 1, "one feature is held: {:?}", view.owned);
    let road = &view.owned[0];
    assert_eq!(road.owners, vec![0], "Ann holds it");
    let mut cells: Vec<Pos> = road.parts.iter().map(|p| p.pos).collect();
    cells.sort();
    assert_eq!(cells, vec![Pos::new(0, 0), Pos::new(1, 0)]);

    // The mouse on the start tile's road (west half, middle) finds the held road; on its city
    // (the north edge) a feature nobody holds; off the board nothing.
    let (pos, local) = view.feature_under([625.0, 350.0]).expect("a laid tile");
    assert_eq!(pos, Pos::new(0, 0));
    assert!(road.covers(pos, local));
    let (pos, local) = view.feature_under([650.0, 305.0]).expect("a laid tile");
    assert!(!view.owned.iter().any(|o| o.covers(pos, local)));
    assert_eq!(view.feature_under([100.0, 100.0]), None);
}

/// A folder with one 640×480 picture: wood, a hand reaching up from below into the middle, and
/// a red meeple (blue, green, red `meeple`) held in the middle of the picture.
fn meeple_folder(dir: &Path, meeple: [f64; 3]) -> PathBuf {
    use opencv::core::{Point, Rect};
    use opencv::imgproc;
    let folder = dir.join("held");
    std::fs::create_dir_all(&folder).unwrap();
    let mut image =
        Mat::new_rows_cols_with_default(480, 640, CV_8UC3, Scalar::new(60.0, 100.0, 150.0, 0.0))
            .unwrap();
    let skin = Scalar::new(120.0, 150.0, 220.0, 0.0);
    imgproc::rectangle(
        &mut image,
        Rect::new(290, 250, 60, 230),
        skin,
        -1,
        imgproc::LINE_8,
        0,
    )
    .unwrap();
    let [b, g, r] = meeple;
    imgproc::circle(
        &mut image,
        Point::new(320, 236),
        18,
        Scalar::new(b, g, r, 0.0),
        -1,
        imgproc::LINE_8,
        0,
    )
    .unwrap();
    let name = folder.join("0001.png");
    assert!(opencv::imgcodecs::imwrite(name.to_str().unwrap(), &image, &Vector::new()).unwrap());
    folder
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt()
}

#[test]
fn a_meeple_colour_taken_in_the_box_reaches_the_tracker() {
    let dir = scratch("enrol");
    let seen = [50.0, 45.0, 170.0];
    let form = SetupForm {
        source: SourceKind::File,
        file: meeple_folder(&dir, seen).display().to_string(),
        ..SetupForm::default()
    };
    let config = AppConfig {
        journal_dir: Some(dir.join("journals")),
        ..AppConfig::default()
    };
    let mut harness = window(MeeplecamApp::with_form(form, config));
    harness.run();
    assert!(harness
        .query_by_label_contains("Ann's meeple: usual red")
        .is_some());
    harness.get_by_label("Enrol meeple colours").click();
    step_until(&mut harness, "the picture in the box", |h| {
        h.query_by_label("Take colour")
            .is_some_and(|n| !n.accesskit_node().is_disabled())
    });
    assert!(harness.query_by_label_contains("Player 1 (Ann").is_some());
    harness.get_by_label("Take colour").click();
    harness.run();
    // Bob is next; he skips, and the setup screen is back.
    assert!(harness.query_by_label_contains("Player 2 (Bob").is_some());
    harness.get_by_label("Skip player").click();
    harness.run();
    assert!(harness
        .query_by_label_contains("Ann's meeple: taken")
        .is_some());
    assert!(harness
        .query_by_label_contains("Bob's meeple: usual blue")
        .is_some());
    let taken = harness.state().form().meeples.clone();
    assert_eq!(taken.len(), 1);
    assert_eq!(taken[0].colour, meeplecam::rules::Colour::Red);
    assert!(
        distance(taken[0].bgr, seen.map(|v| v as f32)) < 10.0,
        "the meeple, not the hand or the table: {:?}",
        taken[0].bgr
    );
    // Remembered between runs with the rest of the form.
    let saved = serde_json::to_string(harness.state().form()).unwrap();
    let back: SetupForm = serde_json::from_str(&saved).unwrap();
    assert_eq!(back.meeples, taken);

    harness.get_by_label("Start game").click();
    harness.step();
    assert!(harness.state().in_game());
    let table = harness.state().table().unwrap();
    assert_eq!(table.figure_colours[0], taken[0].bgr);
    assert_eq!(
        table.figure_colours[1],
        [185.0, 95.0, 25.0],
        "Bob's nominal blue"
    );
    drop(harness);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn meeple_colours_too_alike_are_warned_about() {
    use meeplecam::app::enrol::MeepleColour;
    use meeplecam::rules::Colour;
    let mut form = SetupForm {
        source: SourceKind::Webcam,
        ..SetupForm::default()
    };
    form.enrol(Colour::Red, [60.0, 60.0, 150.0]);
    let mut harness = window(MeeplecamApp::with_form(form.clone(), AppConfig::default()));
    harness.run();
    assert!(harness.query_by_label_contains("look too alike").is_none());
    // Bob's blue meeple taken under a red lamp looks like Ann's.
    form.meeples.push(MeepleColour {
        colour: Colour::Blue,
        bgr: [70.0, 62.0, 140.0],
    });
    let mut harness = window(MeeplecamApp::with_form(form, AppConfig::default()));
    harness.run();
    assert!(harness
        .query_by_label_contains("Ann's and Bob's meeples look too alike")
        .is_some());
    harness.get_by_label("Forget Bob's colour").click();
    harness.run();
    assert!(harness.query_by_label_contains("look too alike").is_none());
}

#[test]
fn a_bad_intrinsics_file_is_explained_and_the_game_goes_on_without_it() {
    use meeplecam::vision::intrinsics::Intrinsics;
    let dir = scratch("lens");
    let frames = still_folder(&dir);
    let bad = dir.join("camera.yaml");
    std::fs::write(&bad, "%YAML:1.0\ncamera_matrix: [not a matrix\n").unwrap();
    let form = SetupForm {
        source: SourceKind::File,
        file: frames.display().to_string(),
        ..SetupForm::default()
    };
    let config = AppConfig {
        journal_dir: Some(dir.join("journals")),
        ..AppConfig::default()
    };
    let mut harness = window(MeeplecamApp::with_form(form, config.clone()));
    harness.run();
    harness
        .get_by_label("Camera intrinsics file (optional)")
        .focus();
    harness.run();
    harness
        .get_by_label("Camera intrinsics file (optional)")
        .type_text(bad.to_str().unwrap());
    harness.run();
    harness.get_by_label("Start game").click();
    harness.step();
    assert!(harness.state().in_game(), "the game starts anyway");
    step_until(&mut harness, "the game screen", |h| {
        h.query_by_label_contains("Looking for the start tile")
            .is_some()
    });
    let notice = harness
        .query_by_label_contains("Camera intrinsics not used")
        .map(|n| text_of(&n))
        .expect("the bad file is explained");
    assert!(notice.contains("camera.yaml"), "{notice}");
    assert!(harness.query_by_label_contains("undistorted").is_none());
    drop(harness);

    // A good file for this camera: the frames are undistorted.
    let good = dir.join("good.yaml");
    Intrinsics {
        size: [160, 120],
        focal: [150.0, 150.0],
        principal: [80.0, 60.0],
        distortion: [-0.1, 0.0, 0.0, 0.0, 0.0],
        rms_px: None,
        views: None,
    }
    .save(&good)
    .unwrap();
    let form = SetupForm {
        source: SourceKind::File,
        file: frames.display().to_string(),
        intrinsics: good.display().to_string(),
        ..SetupForm::default()
    };
    let mut harness = window(MeeplecamApp::with_form(form.clone(), config.clone()));
    harness.run();
    harness.get_by_label("Start game").click();
    step_until(&mut harness, "undistorted frames", |h| {
        h.query_by_label_contains("undistorted").is_some()
    });
    assert!(harness
        .query_by_label_contains("Camera intrinsics not used")
        .is_none());
    drop(harness);

    // A file for another camera: said so (once a frame came), and the frames are read as
    // they come.
    Intrinsics {
        size: [320, 240],
        focal: [300.0, 300.0],
        principal: [160.0, 120.0],
        distortion: [-0.1, 0.0, 0.0, 0.0, 0.0],
        rms_px: None,
        views: None,
    }
    .save(&good)
    .unwrap();
    let mut harness = window(MeeplecamApp::with_form(form, config));
    harness.run();
    harness.get_by_label("Start game").click();
    step_until(&mut harness, "the frame read as it came", |h| {
        h.query_by_label_contains("camera intrinsics not used: they were measured at 320×240")
            .is_some()
    });
    assert!(harness.query_by_label_contains("could not read").is_none());
    drop(harness);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn hovering_a_held_cloister_tints_it_and_names_its_owner() {
    use meeplecam::app::table::TableView;
    use meeplecam::record::FollowerEntry;
    use meeplecam::rules::{catalogue, FeatureKind, Figure};
    use meeplecam::track::session::calibration_path;

    let (players, calibration) = ann_and_bob_over_a_square_start();
    let mut tracker = Tracker::new(players, Some(calibration.clone())).unwrap();
    // Ann lays a cloister beside the start tile and puts a monk in it.
    let cloister = catalogue().tile_id("B").unwrap();
    let spot = tracker.game().legal_placements(cloister)[0];
    let mut turn = TurnEntry::laid("B", spot.pos, spot.rot.degrees());
    turn.follower = Some(FollowerEntry {
        port: "C".to_string(),
        figure: Figure::Normal,
    });
    tracker.restore(vec![turn]).unwrap();
    let view = TableView::of(&tracker, None);
    let held = view
        .owned
        .iter()
        .find(|o| o.kind == FeatureKind::Cloister)
        .expect("the cloister is held");
    assert_eq!(held.owners, vec![0]);
    let mut around = held.around.clone();
    around.sort();
    let mut want = vec![Pos::new(0, 0), spot.pos];
    want.sort();
    assert_eq!(around, want, "its tile and the start tile count for it");

    // The same game in the window: the picture is the calibration's size.
    let dir = scratch("cloister");
    let folder = dir.join("frames");
    std::fs::create_dir_all(&folder).unwrap();
    let image =
        Mat::new_rows_cols_with_default(720, 1280, CV_8UC3, Scalar::new(90.0, 60.0, 40.0, 0.0))
            .unwrap();
    let name = folder.join("0001.png");
    assert!(opencv::imgcodecs::imwrite(name.to_str().unwrap(), &image, &Vector::new()).unwrap());
    let journal = dir.join("g.journal");
    let mut j = Journal::create(&journal, &tracker.record()).unwrap();
    j.sync(&tracker.turns()).unwrap();
    drop(j);
    calibration.save(&calibration_path(&journal)).unwrap();
    let form = SetupForm {
        source: SourceKind::File,
        file: folder.display().to_string(),
        ..SetupForm::default()
    };
    let config = AppConfig {
        resume: Some(journal),
        journal_dir: Some(dir.clone()),
        ..AppConfig::default()
    };
    let mut harness = window(MeeplecamApp::with_form(form, config));
    step_until(&mut harness, "the camera picture", |h| {
        h.query_by_label_contains("Camera picture").is_some()
    });
    let picture = harness.get_by_label_contains("Camera picture").rect();
    let scale = picture.width() / 1280.0;
    let on_screen =
        |p: [f64; 2]| picture.min + eframe::egui::vec2(p[0] as f32, p[1] as f32) * scale;
    let cell = harness
        .state()
        .table()
        .unwrap()
        .cells
        .iter()
        .find(|c| c.pos == spot.pos)
        .and_then(|c| c.quad)
        .expect("the cloister's cell is in the picture");
    let middle = [
        cell.iter().map(|p| p[0]).sum::<f64>() / 4.0,
        cell.iter().map(|p| p[1]).sum::<f64>() / 4.0,
    ];
    harness.hover_at(on_screen(middle));
    harness.step();
    harness.step();
    let described = text_of(&harness.get_by_label_contains("Camera picture"));
    assert!(
        described.contains("under the mouse: Ann's cloister (1 tile)"),
        "{described}"
    );
    // Off the board nothing is held.
    harness.hover_at(on_screen([100.0, 100.0]));
    harness.step();
    harness.step();
    let described = text_of(&harness.get_by_label_contains("Camera picture"));
    assert!(!described.contains("under the mouse"), "{described}");
    drop(harness);
    std::fs::remove_dir_all(dir).unwrap();
}
