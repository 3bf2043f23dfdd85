// The start guard's text in the languages other than English (www/start-guard.js keeps the
// English inline). Loaded only when the guard has something to say on a page in one of these
// languages, so neither the playground's start nor a docs embed downloads it; the service
// worker precaches it with the shell (index.html names it), so it is there offline too.
// Keep the keys in step with TEXT in start-guard.js and in start-rescue.js (the saved tables'
// download, which imports this file too), and the wording with www/locales. English stays in
// those files; `pick` returns it for an English page.
const TEXTS = {
  de: {
    failed: 'Tablescope konnte nicht starten: ',
    slow: 'Tablescope braucht sehr lange zum Starten. Wenn es so bleibt, laden Sie die Seite neu.',
    safe: 'Ihre gespeicherten Tabellen liegen weiterhin in diesem Browser. Sie können sie jetzt als Datei herunterladen und später mit „Importieren“ im Bereich „Ihre Daten“ importieren.',
    download: 'Gespeicherte Tabellen herunterladen (JSON)',
    reload: 'Neu laden',
    rescueFailed: 'Der Download konnte nicht starten: ',
    downloaded: (n, skipped) =>
      `${count(n, 'de')} ${n === 1 ? 'Tabelle' : 'Tabellen'} heruntergeladen` +
      (skipped.length ? `; beschädigte Einträge übersprungen: ${skipped.join(', ')}.` : '.'),
    empty: 'In diesem Browser sind keine Tabellen gespeichert.',
    unreadable: 'Die gespeicherten Tabellen können nicht gelesen werden: ',
  },
  nl: {
    failed: 'Tablescope kon niet starten: ',
    slow: 'Tablescope doet er lang over om te starten. Als het zo blijft, laad de pagina dan opnieuw.',
    safe: 'Uw opgeslagen tabellen staan nog in deze browser. U kunt ze nu als bestand downloaden en later importeren met ‘Importeren’ in het paneel ‘Uw gegevens’.',
    download: 'Opgeslagen tabellen downloaden (JSON)',
    reload: 'Opnieuw laden',
    rescueFailed: 'Het downloaden kon niet starten: ',
    downloaded: (n, skipped) =>
      `${count(n, 'nl')} ${n === 1 ? 'tabel' : 'tabellen'} gedownload` +
      (skipped.length ? `; beschadigde records overgeslagen: ${skipped.join(', ')}.` : '.'),
    empty: 'Er zijn geen opgeslagen tabellen in deze browser.',
    unreadable: 'De opgeslagen tabellen kunnen niet worden gelezen: ',
  },
  ar: {
    failed: 'تعذّر بدء Tablescope: ',
    slow: 'يستغرق بدء Tablescope وقتًا طويلًا. إن بقي هكذا فأعد تحميل الصفحة.',
    safe: 'لا تزال جداولك المحفوظة مخزنة في هذا المتصفح. يمكنك تنزيلها الآن كملف، ثم استيرادها لاحقًا بزر «استيراد» في لوحة «بياناتك».',
    download: 'نزّل الجداول المحفوظة (JSON)',
    reload: 'أعد التحميل',
    rescueFailed: 'تعذّر بدء التنزيل: ',
    // Arabic's six plural forms, by the browser's CLDR rules (as the app's catalogue).
    downloaded: (n, skipped) =>
      ({
        zero: 'لم يُنزَّل أي جدول',
        one: 'نُزِّل جدول واحد',
        two: 'نُزِّل جدولان',
        few: `نُزِّلت ${count(n, 'ar')} جداول`,
        many: `نُزِّل ${count(n, 'ar')} جدولًا`,
        other: `نُزِّل ${count(n, 'ar')} جدول`,
      })[new Intl.PluralRules('ar').select(n)] +
      // The records' keys are data: each in its own left-to-right run (LRI … PDI).
      (skipped.length ? `؛ تُخطّيت سجلات تالفة: ${skipped.map((k) => `\u2066${k}\u2069`).join('، ')}.` : '.'),
    empty: 'لا توجد جداول محفوظة في هذا المتصفح.',
    unreadable: 'تتعذّر قراءة الجداول المحفوظة: ',
  },
};

/** A count in prose, formatted for `lang` (Arabic with the guide's Latin digits). */
function count(n, lang) {
  return n.toLocaleString(lang === 'ar' ? 'ar-u-nu-latn' : lang);
}

/** The page's language by the app's rule (src/i18n/lang.rs), if it is one the guard speaks. */
function pageLang() {
  let saved = null;
  try {
    saved = localStorage.getItem('tablescope.lang');
  } catch {
    // No storage here (an opaque origin): the other sources decide.
  }
  const tags = [new URLSearchParams(location.search).get('lang'), saved, ...(navigator.languages || [])];
  for (const tag of tags) {
    const primary = String(tag || '').split(/[-_]/)[0].toLowerCase();
    if (['en', 'de', 'nl', 'ar'].includes(primary)) return primary;
  }
  return 'en';
}

/** The guard's text in the page's language (`english` where that is English), with `lang`
 * and `dir` for its box. */
export function pick(english) {
  const lang = pageLang();
  return { ...(TEXTS[lang] || english), lang, dir: lang === 'ar' ? 'rtl' : 'ltr' };
}
