// The words of the account, sign-in and profile pages in English and Polish, and the
// server's typed refusals said in the page's language (its own message otherwise).

/** key -> [English, Polish] */
export const ACCOUNT_WORDS = {
  sign_in: ["Sign in", "Zaloguj się"],
  register: ["Register", "Załóż konto"],
  signed_in_as: ["Signed in as {name}", "Zalogowano jako {name}"],
  account_name: ["Name", "Nazwa"],
  password: ["Password", "Hasło"],
  no_account: ["No account yet?", "Nie masz konta?"],
  have_account: ["Have an account?", "Masz już konto?"],
  guest_note: [
    "Guests can play without an account.",
    "Goście mogą grać bez konta.",
  ],
  my_account: ["My account", "Moje konto"],
  my_profile: ["My profile and past games", "Mój profil i rozegrane gry"],
  my_tokens: ["Access tokens for programs and bots", "Tokeny dostępu dla programów i botów"],
  my_games: ["My games", "Moje gry"],
  my_games_count: ["Open and running: {count}", "Otwarte i trwające: {count}"],
  resume: ["Resume", "Wróć do gry"],
  resume_here: ["Resume on this device", "Wróć do gry na tym urządzeniu"],
  sign_out: ["Sign out", "Wyloguj się"],
  sign_out_everywhere: ["Sign out everywhere", "Wyloguj się wszędzie"],
  delete_account: ["Delete my account…", "Usuń moje konto…"],
  // what each action ends, said beside its button
  revokes_sign_out: [
    "Ends this browser's session only; your other devices and access tokens stay signed in.",
    "Kończy sesję tylko w tej przeglądarce; inne urządzenia i tokeny dostępu pozostają zalogowane.",
  ],
  revokes_sign_out_everywhere: [
    "Ends every session (this one too) and revokes every access token; games they had open are disconnected. Use it if your password or a token may be in other hands.",
    "Kończy wszystkie sesje (także tę) i unieważnia wszystkie tokeny dostępu; ich połączenia z grami zostają zerwane. Użyj tego, jeśli hasło lub token mogły trafić w cudze ręce.",
  ],
  revokes_password: [
    "Ends every other session (this one stays signed in); access tokens keep working.",
    "Kończy wszystkie pozostałe sesje (ta pozostaje zalogowana); tokeny dostępu działają dalej.",
  ],
  revokes_delete: [
    "Ends every session and access token, and the account itself.",
    "Kończy wszystkie sesje i tokeny dostępu, a także samo konto.",
  ],
  revokes_token: [
    "Revoking a token ends only that token: programs using it are disconnected; your sessions stay.",
    "Unieważnienie tokenu kończy tylko ten token: programy, które go używają, zostają rozłączone; twoje sesje pozostają.",
  ],
  change_password: ["Change password", "Zmień hasło"],
  old_password: ["Current password", "Obecne hasło"],
  new_password: ["New password", "Nowe hasło"],
  password_changed: [
    "Password changed; sessions ended elsewhere: {count}.",
    "Hasło zmienione; zakończone sesje na innych urządzeniach: {count}.",
  ],
  delete_sure: [
    "Deleting your account cannot be undone: you can no longer sign in, and your past games show “deleted player”. Give your password to confirm.",
    "Usunięcia konta nie można cofnąć: nie zalogujesz się już, a twoje rozegrane gry pokażą „deleted player”. Podaj hasło, by potwierdzić.",
  ],
  delete_for_ever: ["Delete for ever", "Usuń na zawsze"],
  deleted: ["Your account is deleted.", "Twoje konto zostało usunięte."],
  cancel: ["Cancel", "Anuluj"],
  not_signed_in: ["You are not signed in.", "Nie jesteś zalogowany(-a)."],
  profile_of: ["{name}", "{name}"],
  joined_on: ["Joined on {date}", "Konto od {date}"],
  player_games: ["Games: {count}", "Gry: {count}"],
  any: ["any", "dowolne"],
  state: ["State", "Stan"],
  state_ended: ["finished", "zakończone"],
  state_playing: ["running", "trwające"],
  state_open: ["open", "otwarte"],
  players_filter: ["Players", "Gracze"],
  newer: ["Newer", "Nowsze"],
  older: ["Older", "Starsze"],
  no_player: ["No such player.", "Nie ma takiego gracza."],
  passkeys: ["Passkeys", "Klucze dostępu"],
  passkey_name: ["Passkey's name", "Nazwa klucza"],
  add_passkey: ["Add a passkey", "Dodaj klucz dostępu"],
  remove: ["Remove", "Usuń"],
  sign_in_passkey: ["Sign in with a passkey", "Zaloguj się kluczem dostępu"],
  passkey_unsupported: [
    "This browser cannot use passkeys.",
    "Ta przeglądarka nie obsługuje kluczy dostępu.",
  ],
  last_used: ["last used {date}", "ostatnio użyty {date}"],
  never_used: ["never used", "jeszcze nieużyty"],
  // the server's refusals
  error_wrong_credentials: [
    "No account has this name and password.",
    "Nie ma konta o tej nazwie i haśle.",
  ],
  error_wrong_old_password: [
    "That is not your current password: nothing changed.",
    "To nie jest twoje obecne hasło: nic nie zmieniono.",
  ],
  error_name_taken: [
    "This name (or one that looks like it) is a registered player's: choose another, or sign in as them.",
    "Ta nazwa (albo bardzo podobna) należy do zarejestrowanego gracza: wybierz inną albo zaloguj się jako on(a).",
  ],
  error_bad_account_name: [
    "A name is 2 to 20 letters, digits, “_”, “-” or “.”.",
    "Nazwa to od 2 do 20 liter, cyfr, „_”, „-” lub „.”.",
  ],
  error_mixed_scripts: [
    "A name may not mix alphabets (Latin and Cyrillic, say).",
    "Nazwa nie może mieszać alfabetów (np. łacińskiego i cyrylicy).",
  ],
  error_name_reserved: ["This name is reserved.", "Ta nazwa jest zastrzeżona."],
  error_weak_password: [
    "Choose a password of 8 to 256 characters, not a common one and not your name.",
    "Wybierz hasło od 8 do 256 znaków, nie popularne i nie twoją nazwę.",
  ],
  error_not_signed_in: ["Sign in first.", "Najpierw się zaloguj."],
  error_cross_site_request: [
    "Refused: the request came from another site.",
    "Odmowa: żądanie przyszło z innej witryny.",
  ],
  error_accounts_unavailable: [
    "Accounts are unavailable right now; games go on. Try again later.",
    "Konta są teraz niedostępne; gry trwają dalej. Spróbuj później.",
  ],
  error_rate_limited: [
    "Too many attempts: try again in {wait}.",
    "Zbyt wiele prób: spróbuj ponownie za {wait}.",
  ],
  error_not_a_player: [
    "Your account holds no seat in this game.",
    "Twoje konto nie ma miejsca w tej grze.",
  ],
  error_game_over: ["The game has ended.", "Gra się zakończyła."],
  error_unknown_player: ["No such player.", "Nie ma takiego gracza."],
  error_passkey_refused: [
    "The passkey's answer did not check out.",
    "Odpowiedź klucza dostępu nie przeszła weryfikacji.",
  ],
  error_passkey_challenge_expired: [
    "That passkey request is used up or expired: try again.",
    "To żądanie klucza dostępu zostało zużyte albo wygasło: spróbuj ponownie.",
  ],
  error_unknown_passkey: [
    "No account has this passkey.",
    "Żadne konto nie ma tego klucza dostępu.",
  ],
  error_passkey_cancelled: [
    "The passkey was not used (cancelled or timed out).",
    "Nie użyto klucza dostępu (anulowano albo minął czas).",
  ],
  error_bad_passkey_name: [
    "A passkey's name is 1 to 40 characters.",
    "Nazwa klucza to od 1 do 40 znaków.",
  ],
};

/** Nouns met by a count: key -> [English one, other], [Polish one, few, many]. */
export const ACCOUNT_COUNTED = {
  seconds: [["{n} second", "{n} seconds"], ["{n} sekundę", "{n} sekundy", "{n} sekund"]],
  games: [["{n} game", "{n} games"], ["{n} gra", "{n} gry", "{n} gier"]],
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
