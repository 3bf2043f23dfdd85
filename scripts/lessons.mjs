// Writes each lesson in one language: scenarios/<lang>/<file> for every lesson file in
// scenarios/ (and the lesson list, index.json) and each of the UI's languages.
//
// Lesson files carry their name, description and step notes in every language, as objects
// of translations by language tag (`"note": {"en": "…", "de": "…"}`, docs/service/lessons.md
// "Translations"). The playground's Learn section reads the full file and switches language in
// place; a docs embed reads `scenarios/<lang>/<file>`, where each such object is replaced by
// its one text (English where the file lacks the language), so an embed downloads only the
// language it shows. The copies are written without whitespace: smaller than the source too.
//
// A post-build step (scripts/post-build.mjs), for every build (the embed fetches these files in debug builds
// too).
//
//   node scripts/lessons.mjs [dir]      dir defaults to $TRUNK_STAGING_DIR, then dist

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The UI's languages (src/i18n/lang.rs). */
export const LANGS = ['en', 'de', 'nl', 'ar'];

/** `value` in `lang` if it is an object of translations; other values as they are. */
export function textIn(value, lang) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return typeof value[lang] === 'string' ? value[lang] : value.en;
}

/** A lesson file's JSON value with every translated text in `lang` only. */
export function lessonIn(lesson, lang) {
  const out = { ...lesson };
  for (const key of ['name', 'description']) if (key in out) out[key] = textIn(out[key], lang);
  if (Array.isArray(out.steps)) {
    out.steps = out.steps.map((step) => ('note' in step ? { ...step, note: textIn(step.note, lang) } : step));
  }
  return out;
}

/** The lesson list (index.json) with each entry's name and summary in `lang` only. */
export function indexIn(index, lang) {
  return {
    ...index,
    scenarios: index.scenarios.map((s) => ({ ...s, name: textIn(s.name, lang), summary: textIn(s.summary, lang) })),
  };
}

/**
 * Parses JSON and fails on an object that names a member twice: a lesson may not, since
 * JSON.parse keeps only the last and the copy would silently differ from the file (the
 * engine refuses a duplicated property with DuplicatePropertiesSpecified).
 */
function parseStrict(text, file) {
  const seen = /"((?:[^"\\]|\\.)*)"\s*:/g;
  // A cheap check on each object's own members: walk the text keeping a stack of key sets.
  const stack = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      seen.lastIndex = i;
      const m = seen.exec(text);
      if (m && m.index === i && stack.length) {
        const keys = stack[stack.length - 1];
        if (keys.has(m[1])) throw new Error(`${file}: an object names "${m[1]}" twice`);
        keys.add(m[1]);
        i = seen.lastIndex - 1;
        continue;
      }
      inString = true;
    } else if (c === '{') stack.push(new Set());
    else if (c === '}') stack.pop();
    else if (c === '[') stack.push(new Set());
    else if (c === ']') stack.pop();
  }
  return JSON.parse(text);
}

export async function writeLanguages(dir) {
  const scenarios = join(dir, 'scenarios');
  const files = (await readdir(scenarios)).filter((f) => f.endsWith('.json'));
  for (const lang of LANGS) await mkdir(join(scenarios, lang), { recursive: true });
  for (const file of files) {
    const value = parseStrict(await readFile(join(scenarios, file), 'utf8'), file);
    for (const lang of LANGS) {
      const one = file === 'index.json' ? indexIn(value, lang) : lessonIn(value, lang);
      await writeFile(join(scenarios, lang, file), JSON.stringify(one));
    }
  }
}

const main = resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
if (main) await writeLanguages(resolve(process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? 'dist'));
