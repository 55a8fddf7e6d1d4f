//! The simulated table: deterministic, and its ground truth agrees with its pixels.
#![cfg(feature = "vision")]

use opencv::core::{Mat, Point, Point2f, Vec3b, Vec4f, Vector, CV_8UC1};
use opencv::imgproc;
use opencv::prelude::*;

use meeplecam::geometry::TileShape;
use meeplecam::record::selfplay::random_record;
use meeplecam::rules::{catalogue, Colour, Pos, Rotation, RuleOptions};
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
                let m = MeepleOnTable::on(&t, port, Colour::Blue, 0.0).unwrap();
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
