// The start guard's text in the languages other than English (www/start-guard.js keeps the
// English inline). Loaded only when the guard has something to say on a page in one of these
// languages, so neither the playground's start nor a docs embed downloads it; the service
// worker precaches it with the shell (index.html names it), so it is there offline too.
// Keep the keys in step with TEXT in start-guard.js and the wording with www/locales.
// English stays in the guard; `pick` returns it for an English page.
const TEXTS = {
  de: {
    failed: 'Tablescope konnte nicht starten: ',
    slow: 'Tablescope braucht sehr lange zum Starten. Wenn es so bleibt, laden Sie die Seite neu.',
    safe: 'Ihre gespeicherten Tabellen liegen weiterhin in diesem Browser. Sie können sie jetzt als Datei herunterladen und später mit „Importieren“ im Bereich „Ihre Daten“ importieren.',
    download: 'Gespeicherte Tabellen herunterladen (JSON)',
    reload: 'Neu laden',
    rescueFailed: 'Der Download konnte nicht starten: ',
  },
  nl: {
    failed: 'Tablescope kon niet starten: ',
    slow: 'Tablescope doet er lang over om te starten. Als het zo blijft, laad de pagina dan opnieuw.',
    safe: 'Uw opgeslagen tabellen staan nog in deze browser. U kunt ze nu als bestand downloaden en later importeren met ‘Importeren’ in het paneel ‘Uw gegevens’.',
    download: 'Opgeslagen tabellen downloaden (JSON)',
    reload: 'Opnieuw laden',
    rescueFailed: 'Het downloaden kon niet starten: ',
  },
  ar: {
    failed: 'تعذّر بدء Tablescope: ',
    slow: 'يستغرق بدء Tablescope وقتًا طويلًا. إن بقي هكذا فأعد تحميل الصفحة.',
    safe: 'لا تزال جداولك المحفوظة مخزنة في هذا المتصفح. يمكنك تنزيلها الآن كملف، ثم استيرادها لاحقًا بزر «استيراد» في لوحة «بياناتك».',
    download: 'نزّل الجداول المحفوظة (JSON)',
    reload: 'أعد التحميل',
    rescueFailed: 'تعذّر بدء التنزيل: ',
  },
};

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
