//! The tile catalogue against JCloisterZone's tile definitions (`../shared/conformance/jcz-tiles`):
//! every tile we alias has the same roads, cities, cloisters and river, the same inns,
//! cathedrals, pennants and goods, the same hills and vineyards, the same fields touching the same cities (with the same
//! pig-herds) — ours derived from the geometry where the data does not list them, theirs written
//! out — and every set has the same counts. Skipped when the folder is absent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use meeplecam::rules::{catalogue, FeatureKind, Port, PortSet, TileType};

fn tiles_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/jcz-tiles");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent", dir.display());
        None
    }
}

/// One XML element: name, attributes, text (child elements are listed flat).
#[derive(Debug)]
struct Element {
    name: String,
    attrs: BTreeMap<String, String>,
    text: String,
}

/// The elements of a small, regular XML document, in order.
fn elements(xml: &str) -> Vec<Element> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        if rest.starts_with('/') || rest.starts_with('?') || rest.starts_with('!') {
            continue;
        }
        let end = rest.find('>').expect("tag closes");
        let tag = &rest[..end];
        let closed = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let (name, attr_text) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
        let mut attrs = BTreeMap::new();
        for part in attr_text.split('"').collect::<Vec<_>>().chunks(2) {
            if let [key, value] = part {
                attrs.insert(
                    key.trim().trim_end_matches('=').to_string(),
                    value.to_string(),
                );
            }
        }
        rest = &rest[end + 1..];
        let text = if closed {
            String::new()
        } else {
            rest[..rest.find('<').unwrap_or(0)].trim().to_string()
        };
        out.push(Element {
            name: name.to_string(),
            attrs,
            text,
        });
    }
    out
}

fn ports(text: &str) -> PortSet {
    text.split_whitespace()
        .map(|p| if p == "I" { "C" } else { p })
        .map(|p| p.parse::<Port>().unwrap())
        .collect()
}

/// A tile's facts in a form both sides can be put in: (kind, ports, marks) for features, and
/// (ports, touched cities' ports, marks) for fields.
#[derive(Debug, Default, PartialEq, Eq)]
struct Facts {
    features: BTreeSet<(String, String, String)>,
    fields: BTreeSet<(String, BTreeSet<String>, String)>,
}

fn ours(tile: &TileType) -> Facts {
    let mut facts = Facts::default();
    if let Some(river) = tile.river {
        facts
            .features
            .insert(("river".into(), river.ports.to_string(), String::new()));
    }
    for (mark, on) in [("hill", tile.hill), ("vineyard", tile.vineyard)] {
        if on {
            facts
                .features
                .insert((mark.into(), String::new(), String::new()));
        }
    }
    // A city that also reaches another city's edge (HS2).
    if let Some((edge, city)) = tile.shared_edge {
        let city = tile.features[city].ports.to_string();
        facts
            .features
            .insert(("shared".into(), edge.to_string(), city));
    }
    for f in &tile.features {
        let marks = format!("{:?}", f.attrs);
        match f.kind {
            FeatureKind::Field => {
                let cities = f
                    .cities
                    .iter()
                    .map(|&c| tile.features[c].ports.to_string())
                    .collect();
                facts.fields.insert((f.ports.to_string(), cities, marks));
            }
            FeatureKind::Cloister => {
                facts
                    .features
                    .insert(("cloister".into(), "C".into(), marks));
            }
            kind => {
                facts
                    .features
                    .insert((kind.name().into(), f.ports.to_string(), marks));
            }
        }
    }
    facts
}

/// JCloisterZone's facts for the tile whose elements are `body`; `None` for a tile with a
/// feature we do not model (gardens: the abbot).
fn theirs(body: &[Element]) -> Option<Facts> {
    let mut facts = Facts::default();
    let mut cities: Vec<PortSet> = Vec::new();
    let mut fields = Vec::new();
    for e in body {
        match e.name.as_str() {
            "road" => {
                let marks = if e.attrs.get("inn").is_some_and(|v| v == "true") {
                    "[Inn]"
                } else {
                    "[]"
                };
                facts
                    .features
                    .insert(("road".into(), ports(&e.text).to_string(), marks.into()));
            }
            "city" => {
                let mut marks = Vec::new();
                let pennants: usize = e.attrs.get("pennants").map_or(0, |n| n.parse().unwrap());
                marks.extend(std::iter::repeat_n("Pennant", pennants));
                if e.attrs.get("cathedral").is_some_and(|v| v == "true") {
                    marks.push("Cathedral");
                }
                match e.attrs.get("resource").map(String::as_str) {
                    Some("wine") => marks.push("Goods(Wine)"),
                    Some("grain") => marks.push("Goods(Wheat)"),
                    Some("cloth") => marks.push("Goods(Cloth)"),
                    Some(other) => panic!("unknown goods {other}"),
                    None => {}
                }
                let p = ports(&e.text);
                cities.push(p);
                if let Some(edge) = e.attrs.get("multi-edge") {
                    let shared = ("shared".into(), ports(edge).to_string(), p.to_string());
                    facts.features.insert(shared);
                }
                facts.features.insert((
                    "city".into(),
                    p.to_string(),
                    format!("[{}]", marks.join(", ")),
                ));
            }
            "monastery" => {
                facts
                    .features
                    .insert(("cloister".into(), "C".into(), "[]".into()));
            }
            "river" => {
                facts
                    .features
                    .insert(("river".into(), ports(&e.text).to_string(), String::new()));
            }
            "field" => fields.push(e),
            "hill" | "vineyard" => {
                facts
                    .features
                    .insert((e.name.clone(), String::new(), String::new()));
            }
            // Printed extras without a rule of their own here (The Princess & the Dragon).
            "volcano" => {}
            _ => return None,
        }
    }
    for f in fields {
        let touched = f
            .attrs
            .get("city")
            .map(|c| {
                ports(c)
                    .iter()
                    .map(|p| {
                        cities
                            .iter()
                            .find(|c| c.contains(p))
                            .expect("a field names a city by one of its ports")
                            .to_string()
                    })
                    .collect()
            })
            .unwrap_or_default();
        let marks = if f.attrs.get("pig-herd").is_some_and(|v| v == "true") {
            "[PigHerd]"
        } else {
            "[]"
        };
        facts
            .fields
            .insert((ports(&f.text).to_string(), touched, marks.into()));
    }
    Some(facts)
}

#[test]
fn tiles_and_sets_match_jcloisterzone() {
    let Some(dir) = tiles_dir() else {
        return;
    };
    let cat = catalogue();
    // Their set → our base box or expansion.
    let sets = [
        ("basic:1", "base"),
        ("river/1:1", "river"),
        ("river/2:1", "river_ii"),
        ("inns-and-cathedrals:1", "inns_and_cathedrals"),
        ("traders-and-builders:1", "traders_and_builders"),
        ("hills-and-sheep:1", "hills_and_sheep"),
    ];
    let mut compared = 0;
    let mut failures = Vec::new();
    for file in [
        "basic.xml",
        "river.xml",
        "inns_and_cathedrals.xml",
        "traders_and_builders.xml",
        "hills_and_sheep.xml",
    ] {
        let xml = std::fs::read_to_string(dir.join(file)).unwrap();
        let all = elements(&xml);
        let mut i = 0;
        while i < all.len() {
            let e = &all[i];
            i += 1;
            if e.name == "tile" {
                let id = &e.attrs["id"];
                let body: Vec<&Element> = all[i..]
                    .iter()
                    .take_while(|b| b.name != "tile" && b.name != "sets")
                    .collect();
                let body: Vec<Element> = body
                    .into_iter()
                    .map(|b| Element {
                        name: b.name.clone(),
                        attrs: b.attrs.clone(),
                        text: b.text.clone(),
                    })
                    .collect();
                let Some(want) = theirs(&body) else {
                    assert!(cat.tile_id(id).is_none(), "{id}: we alias a garden tile");
                    continue;
                };
                let Some(t) = cat.tile_id(id) else {
                    failures.push(format!("{id}: not in our catalogue"));
                    continue;
                };
                let got = ours(cat.tile(t));
                compared += 1;
                if got != want {
                    failures.push(format!(
                        "{id} ({}):\n  ours   {got:?}\n  theirs {want:?}",
                        cat.tile(t).name
                    ));
                }
            }
            if e.name == "tile-set" {
                let Some(&(_, name)) = sets.iter().find(|(j, _)| *j == e.attrs["id"]) else {
                    continue;
                };
                let mut want: BTreeMap<String, u8> = BTreeMap::new();
                for r in all[i..].iter().take_while(|r| r.name != "tile-set") {
                    if r.name == "ref" {
                        let tile = cat.tile(cat.tile_id(&r.attrs["tile"]).unwrap());
                        want.insert(tile.name.clone(), r.attrs["count"].parse().unwrap());
                    }
                }
                let counts = match cat.set(name) {
                    Some(set) => set.counts.clone(),
                    None => cat.expansion(name).unwrap().counts.clone(),
                };
                let got: BTreeMap<String, u8> = counts
                    .into_iter()
                    .map(|(id, n)| (cat.tile(id).name.clone(), n))
                    .collect();
                assert_eq!(got, want, "set {name}");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // 24 base, 21 river, 17 Inns & Cathedrals, 24 Traders & Builders and 16 Hills & Sheep tile
    // types.
    assert_eq!(compared, 24 + 21 + 17 + 24 + 16);
}
