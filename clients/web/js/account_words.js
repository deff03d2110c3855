// The words of the account, sign-in and profile pages in English, Polish, Slovak and
// Lithuanian, and the server's typed refusals said in the page's language (its own message otherwise).

/** key -> [English, Polish, Slovak, Lithuanian] */
export const ACCOUNT_WORDS = {
  sign_in: ["Sign in", "Zaloguj się", "Prihlásiť sa", "Prisijungti"],
  register: ["Register", "Załóż konto", "Registrovať sa", "Registruotis"],
  signed_in_as: ["Signed in as {name}", "Zalogowano jako {name}", "Prihlásený účet: {name}", "Prisijungta kaip {name}"],
  account_name: ["Name", "Nazwa", "Meno", "Vardas"],
  password: ["Password", "Hasło", "Heslo", "Slaptažodis"],
  no_account: ["No account yet?", "Nie masz konta?", "Ešte nemáš účet?", "Dar neturi paskyros?"],
  have_account: ["Have an account?", "Masz już konto?", "Máš účet?", "Turi paskyrą?"],
  guest_note: [
    "Guests can play without an account.",
    "Goście mogą grać bez konta.",
    "Hostia môžu hrať aj bez účtu.",
    "Svečiai gali žaisti ir be paskyros.",
  ],
  my_account: ["My account", "Moje konto", "Môj účet", "Mano paskyra"],
  my_profile: ["My profile and past games", "Mój profil i rozegrane gry", "Môj profil a odohrané hry", "Mano profilis ir sužaisti žaidimai"],
  my_tokens: ["Access tokens for programs and bots", "Tokeny dostępu dla programów i botów", "Prístupové tokeny pre programy a botov", "Prieigos raktai programoms ir botams"],
  my_games: ["My games", "Moje gry", "Moje hry", "Mano žaidimai"],
  my_games_count: ["Open and running: {count}", "Otwarte i trwające: {count}", "Otvorené a prebiehajúce: {count}", "Atviri ir vykstantys: {count}"],
  resume: ["Resume", "Wróć do gry", "Pokračovať", "Tęsti"],
  resume_here: ["Resume on this device", "Wróć do gry na tym urządzeniu", "Pokračovať na tomto zariadení", "Tęsti šiame įrenginyje"],
  sign_out: ["Sign out", "Wyloguj się", "Odhlásiť sa", "Atsijungti"],
  sign_out_everywhere: ["Sign out everywhere", "Wyloguj się wszędzie", "Odhlásiť sa všade", "Atsijungti visur"],
  delete_account: ["Delete my account…", "Usuń moje konto…", "Zmazať môj účet…", "Ištrinti mano paskyrą…"],
  // what each action ends, said beside its button
  revokes_sign_out: [
    "Ends this browser's session only; your other devices and access tokens stay signed in.",
    "Kończy sesję tylko w tej przeglądarce; inne urządzenia i tokeny dostępu pozostają zalogowane.",
    "Ukončí len reláciu tohto prehliadača; ostatné zariadenia a prístupové tokeny zostanú prihlásené.",
    "Baigia tik šios naršyklės seansą; kiti įrenginiai ir prieigos raktai lieka prisijungę.",
  ],
  revokes_sign_out_everywhere: [
    "Ends every session (this one too) and revokes every access token; games they had open are disconnected. Use it if your password or a token may be in other hands.",
    "Kończy wszystkie sesje (także tę) i unieważnia wszystkie tokeny dostępu; ich połączenia z grami zostają zerwane. Użyj tego, jeśli hasło lub token mogły trafić w cudze ręce.",
    "Ukončí všetky relácie (aj túto) a zruší všetky prístupové tokeny; hry, ktoré mali otvorené, sa odpoja. Použi to, ak môže byť tvoje heslo alebo token v cudzích rukách.",
    "Baigia visus seansus (ir šį) ir atšaukia visus prieigos raktus; jų atverti žaidimai atjungiami. Naudok, jei tavo slaptažodis ar raktas gali būti svetimose rankose.",
  ],
  revokes_password: [
    "Ends every other session (this one stays signed in); access tokens keep working.",
    "Kończy wszystkie pozostałe sesje (ta pozostaje zalogowana); tokeny dostępu działają dalej.",
    "Ukončí všetky ostatné relácie (táto zostane prihlásená); prístupové tokeny fungujú ďalej.",
    "Baigia visus kitus seansus (šis lieka prisijungęs); prieigos raktai toliau veikia.",
  ],
  revokes_delete: [
    "Ends every session and access token, and the account itself.",
    "Kończy wszystkie sesje i tokeny dostępu, a także samo konto.",
    "Ukončí všetky relácie a prístupové tokeny aj samotný účet.",
    "Baigia visus seansus ir prieigos raktus bei pačią paskyrą.",
  ],
  revokes_token: [
    "Revoking a token ends only that token: programs using it are disconnected; your sessions stay.",
    "Unieważnienie tokenu kończy tylko ten token: programy, które go używają, zostają rozłączone; twoje sesje pozostają.",
    "Zrušenie tokenu ukončí len tento token: programy, ktoré ho používajú, sa odpoja; tvoje relácie zostanú.",
    "Atšaukus raktą baigiamas tik jis: jį naudojančios programos atjungiamos; tavo seansai lieka.",
  ],
  change_password: ["Change password", "Zmień hasło", "Zmeniť heslo", "Keisti slaptažodį"],
  old_password: ["Current password", "Obecne hasło", "Súčasné heslo", "Dabartinis slaptažodis"],
  new_password: ["New password", "Nowe hasło", "Nové heslo", "Naujas slaptažodis"],
  password_changed: [
    "Password changed; sessions ended elsewhere: {count}.",
    "Hasło zmienione; zakończone sesje na innych urządzeniach: {count}.",
    "Heslo zmenené; relácie ukončené inde: {count}.",
    "Slaptažodis pakeistas; kitur baigta seansų: {count}.",
  ],
  delete_sure: [
    "Deleting your account cannot be undone: you can no longer sign in, and your past games show “deleted player”. Give your password to confirm.",
    "Usunięcia konta nie można cofnąć: nie zalogujesz się już, a twoje rozegrane gry pokażą „deleted player”. Podaj hasło, by potwierdzić.",
    "Zmazanie účtu sa nedá vrátiť: už sa neprihlásiš a tvoje odohrané hry ukážu „zmazaný hráč“. Na potvrdenie zadaj heslo.",
    "Paskyros ištrynimo negalima atšaukti: nebegalėsi prisijungti, o tavo sužaistuose žaidimuose bus rodoma „ištrintas žaidėjas“. Patvirtink slaptažodžiu.",
  ],
  delete_for_ever: ["Delete for ever", "Usuń na zawsze", "Zmazať navždy", "Ištrinti visam laikui"],
  deleted: ["Your account is deleted.", "Twoje konto zostało usunięte.", "Tvoj účet je zmazaný.", "Tavo paskyra ištrinta."],
  cancel: ["Cancel", "Anuluj", "Zrušiť", "Atšaukti"],
  not_signed_in: ["You are not signed in.", "Nie jesteś zalogowany(-a).", "Nie si prihlásený.", "Neprisijungta."],
  profile_of: ["{name}", "{name}", "{name}", "{name}"],
  joined_on: ["Joined on {date}", "Konto od {date}", "Pridal sa {date}", "Prisijungė {date}"],
  player_games: ["Games: {count}", "Gry: {count}", "Hry: {count}", "Žaidimai: {count}"],
  any: ["any", "dowolne", "ľubovoľný", "bet koks"],
  state: ["State", "Stan", "Stav", "Būsena"],
  state_ended: ["finished", "zakończone", "skončené", "baigti"],
  state_playing: ["running", "trwające", "prebiehajúce", "vykstantys"],
  state_open: ["open", "otwarte", "otvorené", "atviri"],
  players_filter: ["Players", "Gracze", "Hráči", "Žaidėjai"],
  newer: ["Newer", "Nowsze", "Novšie", "Naujesni"],
  older: ["Older", "Starsze", "Staršie", "Senesni"],
  no_player: ["No such player.", "Nie ma takiego gracza.", "Taký hráč neexistuje.", "Tokio žaidėjo nėra."],
  passkeys: ["Passkeys", "Klucze dostępu", "Prístupové kľúče", "Prieigos raktai (passkey)"],
  passkey_name: ["Passkey's name", "Nazwa klucza", "Názov prístupového kľúča", "Prieigos rakto pavadinimas"],
  add_passkey: ["Add a passkey", "Dodaj klucz dostępu", "Pridať prístupový kľúč", "Pridėti prieigos raktą"],
  remove: ["Remove", "Usuń", "Odstrániť", "Pašalinti"],
  sign_in_passkey: ["Sign in with a passkey", "Zaloguj się kluczem dostępu", "Prihlásiť sa prístupovým kľúčom", "Prisijungti prieigos raktu"],
  passkey_unsupported: [
    "This browser cannot use passkeys.",
    "Ta przeglądarka nie obsługuje kluczy dostępu.",
    "Tento prehliadač nevie používať prístupové kľúče.",
    "Ši naršyklė negali naudoti prieigos raktų.",
  ],
  last_used: ["last used {date}", "ostatnio użyty {date}", "naposledy použitý {date}", "paskutinį kartą naudotas {date}"],
  never_used: ["never used", "jeszcze nieużyty", "nikdy nepoužitý", "niekada nenaudotas"],
  // the server's refusals
  error_wrong_credentials: [
    "No account has this name and password.",
    "Nie ma konta o tej nazwie i haśle.",
    "Žiadny účet nemá toto meno a heslo.",
    "Jokia paskyra neturi tokio vardo ir slaptažodžio.",
  ],
  error_wrong_old_password: [
    "That is not your current password: nothing changed.",
    "To nie jest twoje obecne hasło: nic nie zmieniono.",
    "To nie je tvoje súčasné heslo: nič sa nezmenilo.",
    "Tai ne dabartinis tavo slaptažodis: niekas nepakeista.",
  ],
  error_name_taken: [
    "This name (or one that looks like it) is a registered player's: choose another, or sign in as them.",
    "Ta nazwa (albo bardzo podobna) należy do zarejestrowanego gracza: wybierz inną albo zaloguj się jako on(a).",
    "Toto meno (alebo podobné) patrí registrovanému hráčovi: vyber si iné alebo sa prihlás ako on.",
    "Šis vardas (ar į jį panašus) priklauso registruotam žaidėjui: pasirink kitą arba prisijunk jo vardu.",
  ],
  error_bad_account_name: [
    "A name is 2 to 20 letters, digits, “_”, “-” or “.”.",
    "Nazwa to od 2 do 20 liter, cyfr, „_”, „-” lub „.”.",
    "Meno má 2 až 20 písmen, číslic, „_“, „-“ alebo „.“.",
    "Vardą sudaro nuo 2 iki 20 raidžių, skaitmenų, „_“, „-“ arba „.“.",
  ],
  error_mixed_scripts: [
    "A name may not mix alphabets (Latin and Cyrillic, say).",
    "Nazwa nie może mieszać alfabetów (np. łacińskiego i cyrylicy).",
    "Meno nesmie miešať abecedy (napríklad latinku a cyriliku).",
    "Vardas negali maišyti abėcėlių (pavyzdžiui, lotynų ir kirilicos).",
  ],
  error_name_reserved: ["This name is reserved.", "Ta nazwa jest zastrzeżona.", "Toto meno je vyhradené.", "Šis vardas rezervuotas."],
  error_weak_password: [
    "Choose a password of 8 to 256 characters, not a common one and not your name.",
    "Wybierz hasło od 8 do 256 znaków, nie popularne i nie twoją nazwę.",
    "Zvoľ heslo s 8 až 256 znakmi, nie bežné a nie tvoje meno.",
    "Pasirink 8–256 simbolių slaptažodį, ne dažną ir ne savo vardą.",
  ],
  error_not_signed_in: ["Sign in first.", "Najpierw się zaloguj.", "Najprv sa prihlás.", "Pirmiausia prisijunk."],
  error_cross_site_request: [
    "Refused: the request came from another site.",
    "Odmowa: żądanie przyszło z innej witryny.",
    "Odmietnuté: požiadavka prišla z inej stránky.",
    "Atmesta: užklausa atėjo iš kitos svetainės.",
  ],
  error_accounts_unavailable: [
    "Accounts are unavailable right now; games go on. Try again later.",
    "Konta są teraz niedostępne; gry trwają dalej. Spróbuj później.",
    "Účty sú teraz nedostupné; hry pokračujú. Skús to neskôr.",
    "Paskyros dabar nepasiekiamos; žaidimai tęsiasi. Bandyk vėliau.",
  ],
  error_rate_limited: [
    "Too many attempts: try again in {wait}.",
    "Zbyt wiele prób: spróbuj ponownie za {wait}.",
    "Priveľa pokusov: skús to znova o {wait}.",
    "Per daug bandymų: bandyk vėl po {wait}.",
  ],
  error_not_a_player: [
    "Your account holds no seat in this game.",
    "Twoje konto nie ma miejsca w tej grze.",
    "Tvoj účet nemá v tejto hre miesto.",
    "Tavo paskyra šiame žaidime neturi vietos.",
  ],
  error_game_over: ["The game has ended.", "Gra się zakończyła.", "Hra skončila.", "Žaidimas baigėsi."],
  error_unknown_player: ["No such player.", "Nie ma takiego gracza.", "Taký hráč neexistuje.", "Tokio žaidėjo nėra."],
  error_passkey_refused: [
    "The passkey's answer did not check out.",
    "Odpowiedź klucza dostępu nie przeszła weryfikacji.",
    "Odpoveď prístupového kľúča neprešla kontrolou.",
    "Prieigos rakto atsakymas nepraėjo patikros.",
  ],
  error_passkey_challenge_expired: [
    "That passkey request is used up or expired: try again.",
    "To żądanie klucza dostępu zostało zużyte albo wygasło: spróbuj ponownie.",
    "Táto požiadavka prístupového kľúča je použitá alebo vypršala: skús znova.",
    "Ši prieigos rakto užklausa jau panaudota arba pasibaigė: bandyk dar kartą.",
  ],
  error_unknown_passkey: [
    "No account has this passkey.",
    "Żadne konto nie ma tego klucza dostępu.",
    "Žiadny účet nemá tento prístupový kľúč.",
    "Jokia paskyra neturi šio prieigos rakto.",
  ],
  error_passkey_cancelled: [
    "The passkey was not used (cancelled or timed out).",
    "Nie użyto klucza dostępu (anulowano albo minął czas).",
    "Prístupový kľúč sa nepoužil (zrušené alebo vypršal čas).",
    "Prieigos raktas nepanaudotas (atšaukta arba baigėsi laikas).",
  ],
  error_bad_passkey_name: [
    "A passkey's name is 1 to 40 characters.",
    "Nazwa klucza to od 1 do 40 znaków.",
    "Názov prístupového kľúča má 1 až 40 znakov.",
    "Prieigos rakto pavadinimas – nuo 1 iki 40 simbolių.",
  ],
};

/** Nouns met by a count: key -> per language, a form per CLDR plural category. */
export const ACCOUNT_COUNTED = {
  seconds: [
    { one: "{n} second", other: "{n} seconds" },
    { one: "{n} sekundę", few: "{n} sekundy", many: "{n} sekund", other: "{n} sekundy" },
    { one: "{n} sekundu", few: "{n} sekundy", many: "{n} sekundy", other: "{n} sekúnd" },
    { one: "{n} sekundės", few: "{n} sekundžių", many: "{n} sekundės", other: "{n} sekundžių" },
  ],
  games: [
    { one: "{n} game", other: "{n} games" },
    { one: "{n} gra", few: "{n} gry", many: "{n} gier", other: "{n} gry" },
    { one: "{n} hra", few: "{n} hry", many: "{n} hry", other: "{n} hier" },
    { one: "{n} žaidimas", few: "{n} žaidimai", many: "{n} žaidimo", other: "{n} žaidimų" },
  ],
};

/** A refusal (ApiError) in the page's language: its code's words, or the server's text. */
export function errorText(i18n, error) {
  if (error.code === "rate_limited" && error.retryAfterMs) {
    const wait = i18n.count(Math.max(1, Math.ceil(error.retryAfterMs / 1000)), "seconds");
    return i18n.t("error_rate_limited", { wait });
  }
  const key = `error_${error.code}`;
  return i18n.has(key) ? i18n.t(key) : error.message;
}
