//! The card fonts, read once per build: each file's face, the family name the SVG asks for, what
//! identifies the file (for cache keys), which characters it draws and how wide a text is.

use resvg::usvg::fontdb::{Database, ID};
use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// How much of a font file identifies it, with its length: the table directory at its start
/// holds every table's checksum, so another version of a font differs there.
const IDENTITY_PREFIX: usize = 4096;

/// A font file that could not be used.
#[derive(Debug)]
pub struct FontError {
    pub path: String,
    pub reason: String,
}

impl fmt::Display for FontError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.reason)
    }
}

struct Face {
    id: ID,
    family: String,
    identity: Vec<u8>,
}

/// The fonts cards are drawn with, by the path they were loaded from.
pub struct Fonts {
    db: Arc<Database>,
    faces: HashMap<String, Face>,
}

impl Fonts {
    /// Reads each file of `paths` once (a path named twice is read once).
    pub fn load<'a>(paths: impl IntoIterator<Item = &'a str>) -> Result<Fonts, FontError> {
        let mut db = Database::new();
        let mut faces = HashMap::new();
        for path in paths {
            if faces.contains_key(path) {
                continue;
            }
            let error = |reason: String| FontError {
                path: path.to_string(),
                reason,
            };
            let bytes = std::fs::read(path).map_err(|e| error(e.to_string()))?;
            let mut identity = (bytes.len() as u64).to_le_bytes().to_vec();
            identity.extend_from_slice(&bytes[..bytes.len().min(IDENTITY_PREFIX)]);
            let ids = db.load_font_source(resvg::usvg::fontdb::Source::Binary(Arc::new(bytes)));
            let id = *ids
                .first()
                .ok_or_else(|| error("not a TrueType or OpenType font".into()))?;
            let family = (db.face(id).and_then(|f| f.families.first()))
                .map(|(name, _)| name.clone())
                .ok_or_else(|| error("the font has no family name".into()))?;
            faces.insert(path.to_string(), Face { id, family, identity });
        }
        Ok(Fonts {
            db: Arc::new(db),
            faces,
        })
    }

    pub(crate) fn database(&self) -> Arc<Database> {
        Arc::clone(&self.db)
    }

    fn face(&self, font: &str) -> Result<&Face, String> {
        self.faces
            .get(font)
            .ok_or_else(|| format!("font {font} was not loaded"))
    }

    /// The family name an SVG names the font by.
    pub(crate) fn family(&self, font: &str) -> Result<&str, String> {
        self.face(font).map(|face| face.family.as_str())
    }

    /// Bytes that change when the file does (its length and table directory).
    pub fn identity(&self, font: &str) -> Result<&[u8], String> {
        self.face(font).map(|face| face.identity.as_slice())
    }

    /// The characters of `text` the font has no glyph for (each once, in order): drawn, they
    /// would be empty boxes or nothing.
    pub fn missing(&self, font: &str, text: &str) -> Result<Vec<char>, String> {
        self.measure(font, |face| {
            let charmap = face.charmap();
            let mut missing: Vec<char> = Vec::new();
            for c in text.chars().filter(|c| !c.is_whitespace() && !c.is_control()) {
                if charmap.map(c).is_none() && !missing.contains(&c) {
                    missing.push(c);
                }
            }
            missing
        })
    }

    /// Runs `f` with the parsed font.
    pub(crate) fn measure<T>(&self, font: &str, f: impl FnOnce(&FontRef) -> T) -> Result<T, String> {
        let face = self.face(font)?;
        self.db
            .with_face_data(face.id, |data, index| {
                FontRef::from_index(data, index)
                    .map(|parsed| f(&parsed))
                    .map_err(|e| format!("font {font}: {e}"))
            })
            .unwrap_or_else(|| Err(format!("font {font} was not loaded")))
    }
}

/// How wide `text` is at `size` pixels in `face`, from the glyphs' advances (kerning aside, a
/// line measured so is at most a few pixels wider than drawn).
pub(crate) fn text_width(face: &FontRef, text: &str, size: f32) -> f32 {
    let (charmap, metrics) = (
        face.charmap(),
        face.glyph_metrics(Size::new(size), LocationRef::default()),
    );
    text.chars()
        .filter_map(|c| charmap.map(c))
        .filter_map(|glyph| metrics.advance_width(glyph))
        .sum()
}
