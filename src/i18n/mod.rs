//! The words players read, in their language: one Project Fluent catalogue per language
//! (`en.ftl`, `es.ftl` beside this file), built into the binary and parsed once.
//!
//! Every sentence is looked up through [`tr!`](crate::i18n::tr) with its message id as a string literal, so a test
//! can find every id the code uses and check it against every catalogue. A message missing from a
//! catalogue, or one that fails to format, falls back to English, then to its id: a gap in a
//! translation never stops the bot, and the tests catch it first.
//!
//! Adding a language touches three places: a new `.ftl` file beside this one, its variant of
//! [`Lang`] and its line in [`CATALOGUES`] (its code, which the console's `--lang` and `LANG`
//! read), and the Discord locales it answers to in `LOCALES` (`src/discord/framework.rs`), under
//! which the slash commands are registered in it and an interaction's locale is read as it.
//!
//! Pure: no I/O and nothing of the rest of the project, so every layer above may use it.

pub mod commands;

use std::borrow::Cow;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// A language the bot speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English, the fallback for every language the bot does not speak.
    #[default]
    En,
    Es,
}

/// Each language with its code and its catalogue: the one list to extend for a new language.
pub const CATALOGUES: &[(Lang, &str, &str)] = &[
    (Lang::En, "en", include_str!("en.ftl")),
    (Lang::Es, "es", include_str!("es.ftl")),
];

impl Lang {
    /// Every language the bot speaks, English first.
    pub fn all() -> impl Iterator<Item = Lang> {
        CATALOGUES.iter().map(|&(lang, _, _)| lang)
    }

    /// The language of a locale as Discord gives it (`es-ES`, `es-419`, `en-US`, …) or as a
    /// member types it (`es`): its first subtag decides; a language the bot does not speak is
    /// English.
    ///
    /// ```
    /// use breakthrough_bot::i18n::Lang;
    /// assert_eq!(Lang::from_locale("es-419"), Lang::Es);
    /// assert_eq!(Lang::from_locale("es_ES.UTF-8"), Lang::Es);
    /// assert_eq!(Lang::from_locale("pt-BR"), Lang::En);
    /// ```
    pub fn from_locale(locale: &str) -> Lang {
        let primary = locale
            .split(['-', '_', '.', '@'])
            .next()
            .unwrap_or_default()
            .trim();
        CATALOGUES
            .iter()
            .find(|(_, code, _)| code.eq_ignore_ascii_case(primary))
            .map_or(Lang::En, |&(lang, _, _)| lang)
    }

    /// The language of the environment, as a terminal program reads it: `LC_ALL`, then `LANG`
    /// (`es_ES.UTF-8` is Spanish); English when neither is set.
    pub fn from_env() -> Lang {
        Lang::from_env_values(
            std::env::var("LC_ALL").ok().as_deref(),
            std::env::var("LANG").ok().as_deref(),
        )
    }

    /// [`Lang::from_env`] on given values of `LC_ALL` and `LANG`: the first one set and not
    /// empty counts.
    pub fn from_env_values(lc_all: Option<&str>, lang: Option<&str>) -> Lang {
        [lc_all, lang]
            .into_iter()
            .flatten()
            .find(|v| !v.trim().is_empty())
            .map_or(Lang::En, Lang::from_locale)
    }

    /// The language's code: `en`, `es`.
    pub fn code(self) -> &'static str {
        CATALOGUES
            .iter()
            .find(|(lang, _, _)| *lang == self)
            .map_or("en", |&(_, code, _)| code)
    }

    /// The language's catalogue, as written.
    pub fn source(self) -> &'static str {
        CATALOGUES
            .iter()
            .find(|(lang, _, _)| *lang == self)
            .map_or("", |&(_, _, source)| source)
    }
}

impl std::str::FromStr for Lang {
    type Err = String;

    /// Exactly a language's code (`en`, `es`), for a command-line option.
    fn from_str(s: &str) -> Result<Lang, String> {
        let code = s.trim();
        CATALOGUES
            .iter()
            .find(|(_, c, _)| c.eq_ignore_ascii_case(code))
            .map(|&(lang, _, _)| lang)
            .ok_or_else(|| {
                let codes: Vec<&str> = CATALOGUES.iter().map(|(_, c, _)| *c).collect();
                format!("`{s}` is not a language: choose {}", codes.join(" or "))
            })
    }
}

/// A value put into a message: text as it is, or a number (which plurals select on).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Text(String),
    Number(i64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Text(s.clone())
    }
}

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Number(n)
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Number(i64::from(n))
    }
}

impl From<u8> for Arg {
    fn from(n: u8) -> Arg {
        Arg::Number(i64::from(n))
    }
}

impl From<u64> for Arg {
    fn from(n: u64) -> Arg {
        i64::try_from(n).map_or_else(|_| Arg::Text(n.to_string()), Arg::Number)
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        i64::try_from(n).map_or_else(|_| Arg::Text(n.to_string()), Arg::Number)
    }
}

/// The message `id` in `lang`, with `args` put in: `tr!(lang, "challenge-expired", id = 3,
/// challenger = name)`. The id must be a string literal, so the catalogue tests find it.
macro_rules! tr {
    ($lang:expr, $id:literal $(,)?) => {
        $crate::i18n::message($lang, $id, &[])
    };
    ($lang:expr, $id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::message(
            $lang,
            $id,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),+],
        )
    };
}
pub(crate) use tr;

type Bundle = FluentBundle<FluentResource>;

/// A catalogue turned into a bundle, with what went wrong on the way (nothing, in a release):
/// logged as it loads, and kept for the test that holds the catalogues to no error.
struct Loaded {
    bundle: Bundle,
    #[cfg(feature = "test-support")]
    errors: Vec<String>,
}

fn load(code: &str, source: &str) -> Loaded {
    let mut errors = Vec::new();
    let id: LanguageIdentifier = code.parse().unwrap_or_default();
    let mut bundle = Bundle::new_concurrent(vec![id]);
    // Plain text: no Unicode isolation marks around the values put in.
    bundle.set_use_isolating(false);
    let resource = match FluentResource::try_new(source.to_string()) {
        Ok(resource) => resource,
        Err((resource, parse)) => {
            errors.extend(parse.iter().map(|e| format!("{code}.ftl: {e:?}")));
            resource
        }
    };
    if let Err(add) = bundle.add_resource(resource) {
        errors.extend(add.iter().map(|e| format!("{code}.ftl: {e:?}")));
    }
    for e in &errors {
        tracing::error!(error = %e, "a message catalogue has an error");
    }
    #[cfg(not(feature = "test-support"))]
    drop(errors);
    Loaded {
        bundle,
        #[cfg(feature = "test-support")]
        errors,
    }
}

static BUNDLES: LazyLock<Vec<(Lang, Loaded)>> = LazyLock::new(|| {
    CATALOGUES
        .iter()
        .map(|&(lang, code, source)| (lang, load(code, source)))
        .collect()
});

fn bundle(lang: Lang) -> Option<&'static Bundle> {
    BUNDLES
        .iter()
        .find(|(l, _)| *l == lang)
        .map(|(_, loaded)| &loaded.bundle)
}

/// What went wrong reading the catalogues: parse errors and ids defined twice. Empty unless a
/// catalogue is broken; a test keeps it empty.
#[cfg(feature = "test-support")]
pub fn catalogue_errors() -> Vec<String> {
    BUNDLES
        .iter()
        .flat_map(|(_, loaded)| loaded.errors.iter().cloned())
        .collect()
}

/// `id` formatted in `lang`'s catalogue, if it is there and formats without error.
pub fn lookup(lang: Lang, id: &str, args: &[(&str, Arg)]) -> Result<String, String> {
    let bundle = bundle(lang).ok_or_else(|| format!("no catalogue for {}", lang.code()))?;
    let pattern = bundle
        .get_message(id)
        .and_then(|m| m.value())
        .ok_or_else(|| format!("{}.ftl has no message `{id}`", lang.code()))?;
    let mut fluent_args = FluentArgs::with_capacity(args.len());
    for (name, value) in args {
        let value = match value {
            Arg::Text(s) => FluentValue::String(Cow::Owned(s.clone())),
            Arg::Number(n) => FluentValue::from(*n),
        };
        fluent_args.set(*name, value);
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
    if errors.is_empty() {
        Ok(text.into_owned())
    } else {
        Err(format!("{}.ftl `{id}`: {errors:?}", lang.code()))
    }
}

/// The message `id` in `lang`, falling back to English and then to the id itself (logged): use
/// [`tr!`](crate::i18n::tr), which checks the id is a literal.
pub fn message(lang: Lang, id: &str, args: &[(&str, Arg)]) -> String {
    match lookup(lang, id, args) {
        Ok(text) => text,
        Err(why) => {
            tracing::warn!(%why, "a message is missing or broken");
            if lang == Lang::En {
                return id.to_string();
            }
            lookup(Lang::En, id, args).unwrap_or_else(|why| {
                tracing::warn!(%why, "a message is missing or broken");
                id.to_string()
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_choose_a_language() {
        for es in ["es", "es-ES", "es-419", "ES", "es_AR.UTF-8"] {
            assert_eq!(Lang::from_locale(es), Lang::Es, "{es}");
        }
        for en in [
            "en-US",
            "en-GB",
            "pt-BR",
            "fr",
            "",
            "C",
            "POSIX",
            "C.UTF-8",
            "esperanto",
        ] {
            assert_eq!(Lang::from_locale(en), Lang::En, "{en}");
        }
        assert_eq!(Lang::from_env_values(None, Some("es_ES.UTF-8")), Lang::Es);
        assert_eq!(
            Lang::from_env_values(Some("en_US.UTF-8"), Some("es_ES.UTF-8")),
            Lang::En
        );
        assert_eq!(Lang::from_env_values(Some(""), Some("es_MX")), Lang::Es);
        assert_eq!(Lang::from_env_values(None, None), Lang::En);
        assert_eq!("es".parse::<Lang>(), Ok(Lang::Es));
        assert!("de".parse::<Lang>().is_err());
    }

    #[test]
    fn a_missing_message_falls_back_to_english_then_to_its_id() {
        assert_eq!(message(Lang::Es, "no-such-message", &[]), "no-such-message");
        assert!(lookup(Lang::Es, "no-such-message", &[]).is_err());
    }
}
