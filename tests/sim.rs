//! The simulated table: deterministic, and its ground truth agrees with its pixels.
#![cfg(feature = "vision")]

use opencv::core::{Mat, Point, Point2f, Vec3b, Vec4f, Vector, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;

use meeplecam::geometry::TileShape;
use meeplecam::record::selfplay::random_record;
use meeplecam::rules::{catalogue, Attr, Colour, Figure, Good, Pos, Rotation, RuleOptions};
use meeplecam::sim::camera::Camera;
use meeplecam::sim::effects::Lighting;
use meeplecam::sim::hand::Arm;
use meeplecam::sim::scene::{MeepleOnTable, Renderer, Scene, Sensor, TileOnTable};
use meeplecam::sim::style::Style;
use meeplecam::sim::table::Surface;
use meeplecam::sim::timeline::{Film, Filming, View};

const CLEAN: Sensor = Sensor {
    noise: 0.0,
    jpeg_quality: None,
    blur: None,
};

fn neutral_light() -> Lighting {
    Lighting {
        direction: [0.3, 0.2, 1.0],
        gain: [1.0; 3],
        gradient: [0.0; 2],
        vignette: 0.0,
    }
}

fn tile(name: &str, cell: Pos, rot: Rotation, offset: [f64; 2], angle: f64) -> TileOnTable {
    TileOnTable {
        tile: catalogue().tile_id(name).unwrap(),
        cell,
        rot,
        offset_mm: offset,
        angle_deg: angle,
        lift_mm: 0.0,
        print: 7,
        icons: 0,
    }
}

fn scene(tiles: Vec<TileOnTable>, camera: Camera) -> Scene {
    Scene {
        tiles,
        meeples: Vec::new(),
        arm: None,
        held: None,
        lighting: neutral_light(),
        camera,
    }
}

fn pixel(img: &Mat, p: [f64; 2]) -> [u8; 3] {
    let v = img
        .at_2d::<Vec3b>(p[1].round() as i32, p[0].round() as i32)
        .unwrap();
    [v[0], v[1], v[2]]
}

fn brightness(c: [u8; 3]) -> u32 {
    c.iter().map(|&v| u32::from(v)).sum()
}

#[test]
fn frames_are_identical_for_a_seed_and_differ_between_seeds() {
    let mut record = random_record("base", 2, RuleOptions::default(), 4).unwrap();
    record.turns.truncate(3);
    let filming = Filming {
        view: View::Oblique,
        size: [320, 180],
        fps: 4.0,
        seed: 9,
    };
    let film = Film::plan(&record, &filming).unwrap();
    assert!(
        film.shots().iter().any(|s| s.scene.arm.is_some()),
        "an arm reaches in"
    );
    let render_all = |seed: u64| -> Vec<Vec<u8>> {
        let mut r = Renderer::new(Style::preset(1), Surface::Wood, seed);
        film.shots()
            .iter()
            .enumerate()
            .map(|(i, s)| {
                r.render(&s.scene, &s.sensor, i as u64)
                    .unwrap()
                    .image
                    .data_bytes()
                    .unwrap()
                    .to_vec()
            })
            .collect()
    };
    let a = render_all(3);
    assert_eq!(a, render_all(3));
    assert_ne!(a, render_all(4));
}

/// Sub-pixel corners of the single bright quadrilateral in `img`: lines fitted to each side of
/// its outline, intersected. `near` are the expected corners, used only to split the outline
/// into sides.
fn measured_corners(img: &Mat, near: &[[f64; 2]; 4]) -> [[f64; 2]; 4] {
    let mut grey = Mat::default();
    imgproc::cvt_color(img, &mut grey, imgproc::COLOR_BGR2GRAY, 0).unwrap();
    let mut bin = Mat::default();
    // Between the dark table (about 36) and the tile's darkest paint, its cut edge (about 80).
    imgproc::threshold(&grey, &mut bin, 58.0, 255.0, imgproc::THRESH_BINARY).unwrap();
    let mut contours = Vector::<Vector<Point>>::new();
    imgproc::find_contours(
        &bin,
        &mut contours,
        imgproc::RETR_EXTERNAL,
        imgproc::CHAIN_APPROX_NONE,
        Point::new(0, 0),
    )
    .unwrap();
    let outline = contours.iter().max_by_key(|c| c.len()).unwrap();
    let mut sides: [Vector<Point2f>; 4] = Default::default();
    for p in outline.iter() {
        let q = [f64::from(p.x), f64::from(p.y)];
        let dist = |k: usize| {
            let (a, b) = (near[k], near[(k + 1) % 4]);
            let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
            ((q[0] - a[0]) * dy - (q[1] - a[1]) * dx).abs() / dx.hypot(dy)
        };
        let near_corner = near.iter().any(|c| (c[0] - q[0]).hypot(c[1] - q[1]) < 4.0);
        if near_corner {
            continue;
        }
        let k = (0..4).min_by(|&i, &j| dist(i).total_cmp(&dist(j))).unwrap();
        sides[k].push(Point2f::new(p.x as f32, p.y as f32));
    }
    let centre = [
        near.iter().map(|c| c[0]).sum::<f64>() / 4.0,
        near.iter().map(|c| c[1]).sum::<f64>() / 4.0,
    ];
    let lines: Vec<Vec4f> = sides
        .iter()
        .map(|pts| {
            let mut line = Vec4f::default();
            imgproc::fit_line(pts, &mut line, imgproc::DIST_L2, 0.0, 0.01, 0.01).unwrap();
            // Outline pixels lie on average half a pixel inside the true edge: move outwards.
            let normal = [-f64::from(line[1]), f64::from(line[0])];
            let to_centre = [
                centre[0] - f64::from(line[2]),
                centre[1] - f64::from(line[3]),
            ];
            let sign = if normal[0] * to_centre[0] + normal[1] * to_centre[1] > 0.0 {
                -0.5
            } else {
                0.5
            };
            line[2] += (normal[0] * sign) as f32;
            line[3] += (normal[1] * sign) as f32;
            line
        })
        .collect();
    let meet = |l: &Vec4f, m: &Vec4f| {
        let (ax, ay, adx, ady) = (
            f64::from(l[2]),
            f64::from(l[3]),
            f64::from(l[0]),
            f64::from(l[1]),
        );
        let (bx, by, bdx, bdy) = (
            f64::from(m[2]),
            f64::from(m[3]),
            f64::from(m[0]),
            f64::from(m[1]),
        );
        let t = ((bx - ax) * bdy - (by - ay) * bdx) / (adx * bdy - ady * bdx);
        [ax + adx * t, ay + ady * t]
    };
    // Corner k (NW, NE, SE, SW) joins side k-1 (ending there) and side k (starting there).
    [0, 1, 2, 3].map(|k| meet(&lines[(k + 3) % 4], &lines[k]))
}

#[test]
fn tile_corners_land_where_the_homography_says() {
    for (k, cam) in [
        Camera::overhead([640, 480], 60.0, [22.0, 22.0], 180.0),
        Camera::oblique([640, 480], 60.0, [22.0, 22.0], 200.0, 40.0),
    ]
    .into_iter()
    .enumerate()
    {
        let t = tile("B", Pos::new(0, 0), Rotation::R90, [1.2, -0.8], 1.7);
        let s = scene(vec![t], cam.clone());
        let mut r = Renderer::new(Style::preset(3), Surface::Dark, 1);
        let frame = r.render(&s, &CLEAN, 0).unwrap();
        let h = frame.truth.homography;
        let expected = t
            .corners_mm()
            .map(|c| meeplecam::sim::camera::apply_homography(&h, c));
        for (t, e) in frame.truth.tiles[0].corners_px.iter().zip(&expected) {
            assert!(
                (t[0] - e[0]).abs() < 1e-6 && (t[1] - e[1]).abs() < 1e-6,
                "truth = homography"
            );
        }
        let measured = measured_corners(&frame.image, &expected);
        for (m, e) in measured.iter().zip(&expected) {
            let err = (m[0] - e[0]).hypot(m[1] - e[1]);
            assert!(err < 1.0, "camera {k}: corner {m:?} vs {e:?} ({err:.2} px)");
        }
    }
}

#[test]
fn distorted_corners_are_where_the_truth_says() {
    let mut cam = Camera::oblique([640, 480], 70.0, [22.0, 22.0], 220.0, 35.0);
    cam.distortion = [-0.15, 0.04, 0.0, 0.0, 0.0];
    let t = tile("E", Pos::new(0, 0), Rotation::R0, [0.0, 0.0], -1.0);
    let mut r = Renderer::new(Style::preset(3), Surface::Dark, 1);
    let frame = r.render(&scene(vec![t], cam), &CLEAN, 0).unwrap();
    let corners = frame.truth.tiles[0].corners_px;
    let centre = [
        corners.iter().map(|c| c[0]).sum::<f64>() / 4.0,
        corners.iter().map(|c| c[1]).sum::<f64>() / 4.0,
    ];
    for c in corners {
        let (dx, dy) = (centre[0] - c[0], centre[1] - c[1]);
        let n = dx.hypot(dy);
        let inside = [c[0] + dx / n * 2.5, c[1] + dy / n * 2.5];
        let outside = [c[0] - dx / n * 2.5, c[1] - dy / n * 2.5];
        assert!(
            brightness(pixel(&frame.image, inside)) > 200,
            "inside corner {c:?}"
        );
        assert!(
            brightness(pixel(&frame.image, outside)) < 200,
            "outside corner {c:?}"
        );
    }
}

#[test]
fn followers_are_drawn_inside_their_features() {
    let cam = Camera::overhead([480, 480], 50.0, [22.75, 22.75], 110.0);
    let cat = catalogue();
    for name in ["A", "D", "F", "K", "L", "O", "S", "X"] {
        let id = cat.tile_id(name).unwrap();
        for rot in [Rotation::R0, Rotation::R270] {
            let t = tile(name, Pos::new(0, 0), rot, [0.0, 0.0], 0.0);
            let ty = cat.tile(id);
            for (i, f) in ty.features.iter().enumerate() {
                let port = f.ports.rotated(rot).iter().next().unwrap();
                let m = MeepleOnTable::on(&t, port, Colour::Blue, Figure::Normal, 0.0).unwrap();
                let mut with = scene(vec![t], cam.clone());
                with.meeples.push(m);
                let mut r = Renderer::new(Style::preset(0), Surface::Light, 1);
                let img = r.render(&with, &CLEAN, 0).unwrap().image;
                // Pixels painted in the figure's colour family, mapped back onto the tile.
                let h = meeplecam::sim::camera::invert_homography(&cam.homography());
                let (mut total, mut sum) = (0, [0.0f64; 2]);
                for y in 0..img.rows() {
                    for x in 0..img.cols() {
                        let v = img.at_2d::<Vec3b>(y, x).unwrap();
                        let blue = i32::from(v[0]) - i32::from(v[2]) > 60 && v[0] > 90;
                        if !blue {
                            continue;
                        }
                        total += 1;
                        sum = [sum[0] + f64::from(x), sum[1] + f64::from(y)];
                    }
                }
                assert!(
                    total > 20,
                    "{name} rot {rot:?} feature {i}: figure not drawn"
                );
                // The middle of the figure as seen from above stands on its feature.
                let centroid = [sum[0] / f64::from(total), sum[1] / f64::from(total)];
                let mm = meeplecam::sim::camera::apply_homography(&h, centroid);
                let unit = [(mm[0] / 45.5) as f32, (mm[1] / 45.5) as f32];
                let canonical = meeplecam::geometry::rotate(unit, rot.inverse());
                let label = TileShape::of(id).labels.at(canonical);
                assert_eq!(
                    label, i as u8,
                    "{name} {rot:?} {:?} at {port}: figure centre on feature {label}",
                    f.kind
                );
            }
        }
    }
}

#[test]
fn the_hand_mask_is_exactly_what_the_arm_covers() {
    let mut cam = Camera::oblique([640, 360], 65.0, [45.0, 22.0], 300.0, 38.0);
    cam.distortion = [-0.08, 0.01, 0.0, 0.0, 0.0];
    let tiles = vec![
        tile("D", Pos::new(0, 0), Rotation::R0, [0.0, 0.0], 0.5),
        tile("E", Pos::new(0, -1), Rotation::R180, [0.8, 0.3], -1.0),
        tile("U", Pos::new(1, 0), Rotation::R0, [-0.5, 0.0], 0.0),
    ];
    let bare = scene(tiles, cam);
    let mut armed = bare.clone();
    armed.arm = Some(Arm {
        from: [700.0, 420.0],
        palm: [330.0, 170.0],
        width: 60.0,
        skin: [140.0, 170.0, 220.0],
        sleeve: [120.0, 40.0, 40.0],
    });
    let mut r = Renderer::new(Style::preset(2), Surface::Cloth, 5);
    let without = r.render(&bare, &CLEAN, 0).unwrap();
    let with = r.render(&armed, &CLEAN, 0).unwrap();
    assert_eq!(with.hand_mask.typ(), CV_8UC1);
    let (mut covered, mut changed_under_mask) = (0, 0);
    for y in 0..with.image.rows() {
        for x in 0..with.image.cols() {
            let m = *with.hand_mask.at_2d::<u8>(y, x).unwrap();
            let a = with.image.at_2d::<Vec3b>(y, x).unwrap();
            let b = without.image.at_2d::<Vec3b>(y, x).unwrap();
            if m == 0 {
                assert_eq!(a, b, "pixel ({x}, {y}) changed outside the mask");
            } else {
                covered += 1;
                if a != b {
                    changed_under_mask += 1;
                }
            }
        }
    }
    assert!(covered > 2000, "the arm covers {covered} pixels");
    assert!(f64::from(changed_under_mask) / f64::from(covered) > 0.9);
    assert!(with.truth.hand && !without.truth.hand);
}

#[test]
fn frame_sources_play_back_what_was_written() {
    use meeplecam::camera::{FrameSource, ImageFolder, Simulated, VideoFile};
    use meeplecam::sim::output::{write_film, Sink};

    let mut record = random_record("base", 2, RuleOptions::default(), 12).unwrap();
    record.turns.truncate(2);
    let filming = Filming {
        view: View::Overhead,
        size: [320, 240],
        fps: 3.0,
        seed: 2,
    };
    let dir = std::env::temp_dir().join(format!("meeplecam-sources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let video = dir.join("game.mkv");
    let folder = dir.join("frames");
    for sink in [
        Sink::Video {
            path: video.clone(),
            mjpg: false,
        },
        Sink::Folder(folder.clone()),
    ] {
        let film = Film::plan(&record, &filming).unwrap();
        let n = write_film(
            &film,
            &mut Renderer::new(Style::preset(0), Surface::Wood, 2),
            &sink,
            3.0,
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(sink.truth_path())
                .unwrap()
                .lines()
                .count(),
            n
        );
    }
    let film = Film::plan(&record, &filming).unwrap();
    let count = film.shots().len();
    let mut sim = Simulated::new(film, Renderer::new(Style::preset(0), Surface::Wood, 2));
    let mut from_video = VideoFile::open(&video).unwrap();
    let mut from_folder = ImageFolder::open(&folder, 3.0).unwrap();
    for i in 0..count {
        let truth = sim.next_frame().unwrap().unwrap().image;
        let v = from_video.next_frame().unwrap().expect("video frame");
        let f = from_folder.next_frame().unwrap().expect("folder frame");
        // FFV1 and PNG are lossless: every pixel comes back.
        assert_eq!(
            v.image.data_bytes().unwrap(),
            truth.data_bytes().unwrap(),
            "video frame {i}"
        );
        assert_eq!(
            f.image.data_bytes().unwrap(),
            truth.data_bytes().unwrap(),
            "png frame {i}"
        );
        assert_eq!(sim.truth().unwrap().frame, i as u64);
    }
    assert!(sim.next_frame().unwrap().is_none());
    assert!(from_video.next_frame().unwrap().is_none());
    assert!(from_folder.next_frame().unwrap().is_none());

    // Bad sources are clear errors.
    assert!(VideoFile::open(&dir.join("missing.avi")).is_err());
    let junk = dir.join("junk.mkv");
    std::fs::write(&junk, b"not a video").unwrap();
    assert!(VideoFile::open(&junk)
        .map(|mut v| v.next_frame().unwrap().is_none())
        .unwrap_or(true));
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert!(ImageFolder::open(&empty, 1.0).is_err());
    std::fs::write(empty.join("bad.png"), b"garbage").unwrap();
    let err = ImageFolder::open(&empty, 1.0)
        .unwrap()
        .next_frame()
        .err()
        .unwrap();
    assert!(err.to_string().contains("bad.png"), "{err}");
}

/// A tile type with the same features as `id` but no hill, vineyard or river: its twin in the
/// base game, painted the same but for the marks.
fn twin(id: meeplecam::rules::TileId) -> Option<meeplecam::rules::TileId> {
    let cat = catalogue();
    let ty = cat.tile(id);
    cat.tiles()
        .iter()
        .position(|t| {
            t.features == ty.features && !t.hill && !t.vineyard && t.river.is_none() && t != ty
        })
        .map(|i| cat.tile_id(&cat.tiles()[i].name).unwrap())
}

/// The pixel of a point given in canonical tile units of a tile lying with rotation `rot` whose
/// corners (NW, NE, SE, SW, board frame) the truth gives: bilinear in the quadrilateral.
fn on_tile(corners: &[[f64; 2]; 4], rot: Rotation, p: [f32; 2]) -> [f64; 2] {
    let q = meeplecam::geometry::rotate(p, rot);
    let (u, v) = (f64::from(q[0]), f64::from(q[1]));
    let lerp =
        |a: [f64; 2], b: [f64; 2], t: f64| [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    lerp(
        lerp(corners[0], corners[1], u),
        lerp(corners[3], corners[2], u),
        v,
    )
}

/// Mean grey level of the 5×5 pixels around `p`.
fn grey_around(img: &Mat, p: [f64; 2]) -> f64 {
    let mut sum = 0.0;
    for dy in -2..=2 {
        for dx in -2..=2 {
            let c = pixel(img, [p[0] + f64::from(dx), p[1] + f64::from(dy)]);
            sum += f64::from(brightness(c)) / 3.0;
        }
    }
    sum / 25.0
}

#[test]
fn a_hill_tile_is_raised_where_its_mound_is_and_only_there() {
    let cat = catalogue();
    let cam = Camera::overhead([480, 480], 50.0, [22.75, 22.75], 110.0);
    let hills: Vec<_> = cat
        .tiles()
        .iter()
        .filter(|t| t.hill)
        .filter_map(|t| {
            let id = cat.tile_id(&t.name).unwrap();
            twin(id).map(|b| (id, b))
        })
        .collect();
    assert!(hills.len() >= 3, "hill tiles with a base twin: {hills:?}");
    for (hill, base) in hills {
        for rot in [Rotation::R0, Rotation::R90] {
            let render = |id| {
                let mut t = tile("A", Pos::new(0, 0), rot, [0.0, 0.0], 0.0);
                t.tile = id;
                let mut r = Renderer::new(Style::preset(0), Surface::Dark, 3);
                r.render(&scene(vec![t], cam.clone()), &CLEAN, 0).unwrap()
            };
            let (h, b) = (render(hill), render(base));
            let corners = h.truth.tiles[0].corners_px;
            assert_eq!(corners, b.truth.tiles[0].corners_px);
            let diff = |p: [f32; 2]| {
                let at = on_tile(&corners, rot, p);
                grey_around(&h.image, at) - grey_around(&b.image, at)
            };
            let name = &cat.tile(hill).name;
            // Lit from the north-west of the print, in shade to its south-east.
            let (lit, shade) = (diff([0.36, 0.36]), diff([0.64, 0.64]));
            assert!(lit > 12.0, "{name} {rot:?}: lit slope {lit:.1}");
            assert!(shade < -12.0, "{name} {rot:?}: shaded slope {shade:.1}");
            // The corners lie off the mound: printed as the twin.
            for c in [[0.06, 0.06], [0.94, 0.06], [0.94, 0.94], [0.06, 0.94]] {
                let d = diff(c);
                assert!(
                    d.abs() < 6.0,
                    "{name} {rot:?}: corner {c:?} changed by {d:.1}"
                );
            }
        }
    }
}

/// Pixels of `img` (a painted tile) whose colour `is` accepts, as canonical tile points.
fn art_points(img: &Mat, is: impl Fn([u8; 3]) -> bool) -> Vec<[f32; 2]> {
    let n = img.rows() as f32;
    let mut out = Vec::new();
    for y in 0..img.rows() {
        for x in 0..img.cols() {
            let v = img.at_2d::<Vec3b>(y, x).unwrap();
            if is([v[0], v[1], v[2]]) {
                out.push([(x as f32 + 0.5) / n, (y as f32 + 0.5) / n]);
            }
        }
    }
    out
}

fn is_field(id: meeplecam::rules::TileId, p: [f32; 2]) -> bool {
    let label = TileShape::of(id).labels.at(p);
    catalogue()
        .tile(id)
        .features
        .get(usize::from(label))
        .is_some_and(|f| f.kind == meeplecam::rules::FeatureKind::Field)
}

#[test]
fn vineyards_are_printed_in_a_field_of_their_tiles_only() {
    use meeplecam::sim::art::paint_copy;
    let cat = catalogue();
    // Grapes: purple, blue and red well above green.
    let grape = |c: [u8; 3]| {
        let [b, g, r] = c.map(i32::from);
        b > 80 && r > 60 && g + 25 < b.min(r)
    };
    for style in 0..Style::PRESETS {
        for t in cat.tiles() {
            if t.name.starts_with("WB") {
                continue;
            }
            let id = cat.tile_id(&t.name).unwrap();
            let art = paint_copy(id, 0, &Style::preset(style), 11).unwrap();
            let grapes = art_points(&art, grape);
            if t.vineyard {
                assert!(
                    grapes.len() > 30,
                    "{} style {style}: {} grape pixels",
                    t.name,
                    grapes.len()
                );
                let off = grapes.iter().filter(|&&p| !is_field(id, p)).count();
                assert!(
                    off * 20 < grapes.len(),
                    "{} style {style}: {off} grapes off the fields",
                    t.name
                );
            } else if t.count(Attr::Goods(Good::Wine)) == 0 {
                // (Wine goods are grapes too.)
                assert!(
                    grapes.len() < 5,
                    "{} style {style}: {} grape pixels",
                    t.name,
                    grapes.len()
                );
            }
        }
    }
}

/// Canonical tile points where two paintings of a tile differ clearly.
fn changed(a: &Mat, b: &Mat) -> Vec<[f32; 2]> {
    let n = a.rows() as f32;
    let mut out = Vec::new();
    for y in 0..a.rows() {
        for x in 0..a.cols() {
            let (p, q) = (
                a.at_2d::<Vec3b>(y, x).unwrap(),
                b.at_2d::<Vec3b>(y, x).unwrap(),
            );
            let d: i32 = (0..3)
                .map(|k| (i32::from(p[k]) - i32::from(q[k])).abs())
                .sum();
            if d > 60 {
                out.push([(x as f32 + 0.5) / n, (y as f32 + 0.5) / n]);
            }
        }
    }
    out
}

#[test]
fn a_copy_shows_as_many_wheel_icons_as_it_carries_in_a_field() {
    use meeplecam::sim::art::{paint_copy, paint_tile};
    let cat = catalogue();
    for name in ["V", "U", "N", "WF1", "WF11"] {
        let id = cat.tile_id(name).unwrap();
        for style in 0..Style::PRESETS {
            let plain = paint_tile(id, &Style::preset(style), 5).unwrap();
            let count = |icons| {
                let art = paint_copy(id, icons, &Style::preset(style), 5).unwrap();
                let pts = changed(&art, &plain);
                let off = pts.iter().filter(|&&p| !is_field(id, p)).count();
                assert!(
                    off * 20 <= pts.len(),
                    "{name} {icons} icons: {off} of {} changed pixels off the fields",
                    pts.len()
                );
                pts.len() as f64
            };
            let [none, one, two, three] = [0, 1, 2, 3].map(count);
            assert_eq!(none, 0.0, "{name} style {style}: no icon, no change");
            assert!(one > 40.0, "{name} style {style}: one icon is {one} pixels");
            for (n, c) in [(2.0, two), (3.0, three)] {
                let ratio = c / one;
                assert!(
                    (ratio - n).abs() < 0.35 * n,
                    "{name} style {style}: {n} icons are {ratio:.2}× one"
                );
            }
        }
    }
}

/// The figure's silhouette in `img`: pixels of blue paint, relative to `base` (its truth).
fn silhouette(img: &Mat, base: [f64; 2]) -> std::collections::HashSet<(i32, i32)> {
    let (bx, by) = (base[0].round() as i32, base[1].round() as i32);
    let mut out = std::collections::HashSet::new();
    for y in 0..img.rows() {
        for x in 0..img.cols() {
            let v = img.at_2d::<Vec3b>(y, x).unwrap();
            if i32::from(v[0]) - i32::from(v[2]) > 60 && v[0] > 90 {
                out.insert((x - bx, y - by));
            }
        }
    }
    out
}

#[test]
fn each_figure_kind_stands_with_its_own_silhouette_where_the_truth_says() {
    // From the side, low: silhouettes show.
    let cam = Camera::oblique([640, 480], 40.0, [22.75, 22.75], 160.0, 65.0);
    let u = tile("U", Pos::new(0, 0), Rotation::R0, [0.0, 0.0], 0.0);
    let kinds = [
        (Figure::Normal, "W"),
        (Figure::Large, "W"),
        (Figure::Builder, "W"),
        (Figure::Pig, "NL"),
        (Figure::Shepherd, "SR"),
    ];
    let mut shapes = Vec::new();
    for (kind, port) in kinds {
        let m = MeepleOnTable::on(&u, port.parse().unwrap(), Colour::Blue, kind, 0.0).unwrap();
        let mut s = scene(vec![u], cam.clone());
        s.meeples.push(m);
        let frame = Renderer::new(Style::preset(0), Surface::Light, 1)
            .render(&s, &CLEAN, 0)
            .unwrap();
        let truth = &frame.truth.meeples[0];
        assert_eq!(truth.figure, kind);
        assert_eq!(truth.pose, "standing", "{kind:?} stands");
        let shape = silhouette(&frame.image, truth.base_px);
        assert!(shape.len() > 100, "{kind:?}: {} pixels", shape.len());
        // It stands on its base: the truth's base pixel lies under the figure, the nearest
        // edge of its foot a few pixels nearer the camera (lower in the image).
        let lowest = shape.iter().map(|p| p.1).max().unwrap();
        assert!(
            (0..=16).contains(&lowest),
            "{kind:?}: lowest pixel {lowest} px below the base"
        );
        assert!(
            shape.iter().any(|p| p.0 < 0) && shape.iter().any(|p| p.0 > 0),
            "{kind:?}"
        );
        shapes.push((kind, shape));
    }
    let size = |k: usize| shapes[k].1.len() as f64;
    let extent = |k: usize, axis: usize| {
        let v: Vec<i32> = shapes[k]
            .1
            .iter()
            .map(|p| if axis == 0 { p.0 } else { p.1 })
            .collect();
        f64::from(v.iter().max().unwrap() - v.iter().min().unwrap() + 1)
    };
    assert!(size(1) > 1.4 * size(0), "the large follower is larger");
    assert!(extent(2, 1) > 1.25 * extent(0, 1), "the builder is taller");
    assert!(extent(3, 0) > 1.3 * extent(3, 1), "the pig is long and low");
    for i in 0..shapes.len() {
        for j in i + 1..shapes.len() {
            let (a, b) = (&shapes[i].1, &shapes[j].1);
            let iou = a.intersection(b).count() as f64 / a.union(b).count() as f64;
            assert!(
                iou < 0.75,
                "{:?} and {:?} overlap {iou:.2}: too alike",
                shapes[i].0,
                shapes[j].0
            );
        }
    }
}

#[test]
fn special_figures_stand_beside_a_follower_on_the_same_feature() {
    let cat = catalogue();
    for (name, port, kind) in [
        ("U", "W", Figure::Builder),
        ("E", "SL", Figure::Pig),
        ("D", "N", Figure::Builder),
    ] {
        let t = tile(name, Pos::new(0, 0), Rotation::R90, [0.0, 0.0], 0.0);
        let port = port
            .parse::<meeplecam::rules::Port>()
            .unwrap()
            .rotated(Rotation::R90);
        let follower = MeepleOnTable::on(&t, port, Colour::Red, Figure::Normal, 0.0).unwrap();
        let special = MeepleOnTable::on(&t, port, Colour::Red, kind, 0.0).unwrap();
        let (a, b) = (follower.figure.base, special.figure.base);
        let apart = (a[0] - b[0]).hypot(a[1] - b[1]);
        assert!(
            apart > 5.0,
            "{name}: {kind:?} {apart:.1} mm from the follower"
        );
        // Still on the feature: back to canonical tile units.
        let unit = b.map(|v| ((v - 22.75) / 45.0 + 0.5) as f32);
        let canonical = meeplecam::geometry::rotate(unit, Rotation::R90.inverse());
        let id = cat.tile_id(name).unwrap();
        let feature = cat
            .tile(id)
            .feature_at_rotated(port, Rotation::R90)
            .unwrap();
        assert_eq!(
            TileShape::of(id).labels.at(canonical),
            feature as u8,
            "{name} {kind:?}"
        );
    }
}

#[test]
fn the_wheel_board_fills_its_four_by_four_start_area_as_the_truth_says() {
    use meeplecam::rules::expansions::wheel::wheel_data;
    use meeplecam::rules::Placement;
    use meeplecam::sim::wheel::{lay_board, sector_angle, sector_colour, BOARD_CELLS};
    let data = wheel_data();
    let cat = catalogue();
    for rot in [Rotation::R0, Rotation::R90, Rotation::R270] {
        let anchor = Placement {
            pos: Pos::new(2, 1),
            rot,
        };
        let mut cells: Vec<TileOnTable> = data
            .cells(anchor)
            .into_iter()
            .map(|(id, p)| {
                let mut t = tile("A", p.pos, p.rot, [1.5, -1.0], 1.2);
                t.tile = id;
                t
            })
            .collect();
        lay_board(&mut cells);
        let cam = Camera::overhead([640, 640], 60.0, [4.0 * 45.5, 3.0 * 45.5], 380.0);
        let frame = Renderer::new(Style::preset(1), Surface::Wood, 2)
            .render(&scene(cells, cam), &CLEAN, 0)
            .unwrap();
        // The truth: sixteen board cells filling the 4×4 block at the anchor.
        let mut block: Vec<[i32; 2]> = frame.truth.tiles.iter().map(|t| t.cell).collect();
        block.sort_unstable();
        let expected: Vec<[i32; 2]> = (2..6).flat_map(|x| (1..5).map(move |y| [x, y])).collect();
        assert_eq!(block, expected, "{rot:?}");
        // A point of the printed board (canonical board cells) → its pixel, through the truth
        // of the cell it lies in.
        let board_px = |p: [f32; 2]| {
            let (col, row) = (
                (p[0].floor() as i32).clamp(0, BOARD_CELLS - 1),
                (p[1].floor() as i32).clamp(0, BOARD_CELLS - 1),
            );
            let name = &cat
                .tile(data.board[(row * BOARD_CELLS + col) as usize])
                .name;
            let t = frame.truth.tiles.iter().find(|t| &t.tile == name).unwrap();
            assert_eq!(t.rot, rot.degrees());
            on_tile(&t.corners_px, rot, [p[0] - col as f32, p[1] - row as f32])
        };
        let near = |at: [f64; 2], colour: [f64; 3], what: &str| {
            let c = pixel(&frame.image, at);
            let off = (0..3)
                .map(|k| (f64::from(c[k]) - colour[k]).abs())
                .fold(0.0, f64::max);
            assert!(
                off < 45.0,
                "{rot:?} {what}: {c:?} at {at:?}, expected {colour:?}"
            );
        };
        for (k, &(sector, _)) in data.sectors.iter().enumerate() {
            let a = sector_angle(k);
            // Between the pictogram and the crowns, and on the seams between cells too.
            for r in [0.5f32, 0.95] {
                let p = [2.0 + r * a.cos(), 2.0 + r * a.sin()];
                near(board_px(p), sector_colour(sector), sector.name());
            }
        }
        // Straight below the centre the seam between two cells runs through a sector.
        let south = data.sectors[(0..data.sectors.len())
            .find(|&k| (sector_angle(k) - std::f32::consts::FRAC_PI_2).abs() < 0.01)
            .unwrap()]
        .0;
        near(board_px([2.0, 2.95]), sector_colour(south), "seam");
        // Outside the rim: landscape, no sector paint.
        let corner = pixel(&frame.image, board_px([0.25, 0.25]));
        assert!(
            data.sectors.iter().all(|&(s, _)| {
                let c = sector_colour(s);
                (0..3).any(|k| (f64::from(corner[k]) - c[k]).abs() > 45.0)
            }),
            "{rot:?}: the board's corner {corner:?} is painted like a sector"
        );
    }
}

#[test]
fn a_filmed_big_box_game_shows_the_board_icons_and_figures_the_record_says() {
    use meeplecam::record::selfplay::random_record_with;
    use meeplecam::rules::Expansion;
    let expansions = Expansion::ALL.into_iter().collect();
    let mut kinds = std::collections::BTreeSet::new();
    for seed in [1, 2] {
        let record =
            random_record_with("bigbox", expansions, 4, RuleOptions::default(), seed).unwrap();
        let filming = Filming {
            view: View::Overhead,
            size: [320, 180],
            fps: 1.0,
            seed,
        };
        let film = Film::plan(&record, &filming).unwrap();
        let shots = film.shots();
        // The board is there from the first frame, one piece.
        let first = &shots[0].scene.tiles;
        assert_eq!(first.len(), 16);
        assert!(first
            .iter()
            .all(|t| t.print == first[0].print && t.angle_deg == first[0].angle_deg));
        // Each copy shows the icons its draw turned the wheel with.
        let last = shots.last().unwrap();
        let laid: Vec<_> = record.turns.iter().filter(|t| !t.discard).collect();
        assert_eq!(last.scene.tiles.len(), 16 + laid.len());
        for (t, entry) in last.scene.tiles[16..].iter().zip(&laid) {
            let icons = entry.wheel.as_ref().and_then(|w| w.icon).unwrap_or(0);
            assert_eq!(t.icons, icons, "{}", entry.tile);
        }
        assert!(laid
            .iter()
            .any(|e| e.wheel.as_ref().is_some_and(|w| w.icon.is_some())));
        // The figures on the table are the game's, kind by kind.
        let game = record.replay_open().unwrap().game;
        let mut want: Vec<(i32, i32, Colour, Figure)> = game
            .meeples()
            .iter()
            .map(|m| {
                (
                    m.pos.x,
                    m.pos.y,
                    record.players[m.player.index()].colour,
                    m.figure,
                )
            })
            .collect();
        let mut seen: Vec<(i32, i32, Colour, Figure)> = last
            .scene
            .meeples
            .iter()
            .map(|m| (m.cell.x, m.cell.y, m.colour, m.figure.kind))
            .collect();
        want.sort_unstable();
        seen.sort_unstable();
        assert_eq!(seen, want, "seed {seed}");
        kinds.extend(seen.iter().map(|m| m.3));
    }
    assert!(
        kinds.len() >= 4,
        "figure kinds on the final tables: {kinds:?}"
    );
}
