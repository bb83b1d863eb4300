/* Every string the page shows, in English and Spanish (as messages.py does for the CLI).
 *
 * The interface language is the user's setting (`language` in /api/v1/status), or the
 * browser's when the setting is `auto`: never the language of the last message (each
 * answer is in the language it was asked in). Elements carry data-i18n (text),
 * data-i18n-placeholder, data-i18n-title or data-i18n-aria-label with a key; apply()
 * fills them in the current language. A count uses `KEY_one` for 1 and `KEY` otherwise
 * (tn), so the page says "1 file" and "2 files".
 */
(function () {
  "use strict";

  var STRINGS = {
    skip_to_input: ["Skip to the message box", "Ir al cuadro de mensaje"],
    projects: ["Projects", "Proyectos"],
    search: ["Search", "Buscar"],
    search_placeholder: ["Search", "Buscar"],
    search_scope: ["Where to search", "Dónde buscar"],
    search_all: ["All projects", "Todos los proyectos"],
    search_this: ["This project", "Este proyecto"],
    provider: ["Provider", "Proveedor"],
    decisions: ["Decisions", "Decisiones"],
    members: ["Members", "Miembros"],
    sign_out: ["Sign out", "Cerrar sesión"],
    share_with: ["Share with (a person's name)", "Compartir con (el nombre de una persona)"],
    share: ["Share", "Compartir"],
    role: ["Role", "Rol"],
    role_viewer: ["viewer", "lector"],
    role_editor: ["editor", "editor"],
    role_owner: ["owner", "propietario"],
    role_admin: ["admin", "admin"],
    remove_member: ["Remove", "Quitar"],
    by_person: ["by {name}", "por {name}"],
    shared: ["{name} is now {role}.", "{name} es ahora {role}."],
    no_members: ["Nobody is a member yet.", "Aún no hay miembros."],
    new_project: ["New project", "Nuevo proyecto"],
    new_project_placeholder: ["New project name", "Nombre del nuevo proyecto"],
    create: ["Create", "Crear"],
    drop_here: ["Drop a brief to add it to this project", "Suelta un brief para añadirlo a este proyecto"],
    message: ["Message", "Mensaje"],
    message_placeholder: [
      "Ask for a design method, e.g. plan a usability test",
      "Pide un método de diseño, p. ej. planifica un test de usabilidad",
    ],
    attach: ["Add brief or evidence", "Añadir brief o evidencia"],
    cancel: ["Cancel", "Cancelar"],
    send: ["Send", "Enviar"],
    details: ["Details", "Detalles"],
    guide: ["Guide", "Guía"],
    results: ["Results", "Resultados"],
    close: ["Close", "Cerrar"],
    decision: ["Decision", "Decisión"],
    rationale: ["Rationale", "Justificación"],
    record_decision: ["Record decision", "Registrar decisión"],
    delete: ["Delete", "Eliminar"],
    error_http: ["The server answered {status}.", "El servidor respondió {status}."],
    no_projects: ["No projects yet: create one below.", "Aún no hay proyectos: crea uno abajo."],
    turns_count: ["{count} turns", "{count} turnos"],
    turns_count_one: ["{count} turn", "{count} turno"],
    rename_project: ["Rename {name}", "Renombrar {name}"],
    delete_project: ["Delete {name}", "Eliminar {name}"],
    delete_title: ["Delete the project '{name}'?", "¿Eliminar el proyecto '{name}'?"],
    delete_counts: [
      "This removes {counts}. It cannot be undone.",
      "Se eliminarán {counts}. No se puede deshacer.",
    ],
    count_turns: ["{count} turns", "{count} turnos"],
    count_turns_one: ["{count} turn", "{count} turno"],
    count_files: ["{count} files", "{count} archivos"],
    count_files_one: ["{count} file", "{count} archivo"],
    count_decisions: ["{count} decisions", "{count} decisiones"],
    count_decisions_one: ["{count} decision", "{count} decisión"],
    count_branches: ["{count} branches", "{count} ramas"],
    count_branches_one: ["{count} branch", "{count} rama"],
    count_metadata: ["{count} metadata entries", "{count} entradas de metadatos"],
    count_metadata_one: ["{count} metadata entry", "{count} entrada de metadatos"],
    count_process_memory: ["{count} process notes", "{count} notas de proceso"],
    count_process_memory_one: ["{count} process note", "{count} nota de proceso"],
    deleted: ["Deleted '{name}'.", "Se eliminó '{name}'."],
    empty_conversation: [
      "No conversation yet. Describe what you need, in English or Spanish.",
      "Aún no hay conversación. Describe lo que necesitas, en español o en inglés.",
    ],
    default_project: ["General", "General"],
    busy: [
      "A turn is already running in this project; wait for it or cancel it.",
      "Ya hay un turno en curso en este proyecto; espera o cancélalo.",
    ],
    working: ["Working…", "Trabajando…"],
    work_choosing_method: ["Choosing the method…", "Eligiendo el método…"],
    work_reading_reply: ["Reading your reply…", "Leyendo tu respuesta…"],
    work_weighing_follow_up: ["Reading your message…", "Leyendo tu mensaje…"],
    question: ["? {question}", "? {question}"],
    proposed_decision: ["Proposed decision", "Decisión propuesta"],
    status_complete: ["Complete", "Completado"],
    status_cancelled: ["Cancelled", "Cancelado"],
    status_failed: ["Failed", "Falló"],
    status_running: ["Running", "En curso"],
    status_needs_answer: ["Needs your answer", "Necesita tu respuesta"],
    cancelling: ["Cancelling…", "Cancelando…"],
    footer_tokens: ["{tokens} tokens", "{tokens} tokens"],
    footer_checklist: ["checklist: {passed} of {total} met", "checklist: {passed} de {total} cumplidos"],
    footer_not_assessed: ["{count} for a person to judge", "{count} para que juzgue una persona"],
    footer_not_assessed_one: ["{count} for a person to judge", "{count} para que juzgue una persona"],
    review_unavailable: ["model review unavailable: deterministic checks only",
      "revisión del modelo no disponible: solo comprobaciones deterministas"],
    review_heading: ["Review", "Revisión"],
    footer_method: ["method: {confidence}", "método: {confidence}"],
    band_HIGH: ["sure", "seguro"],
    band_MEDIUM: ["fairly sure", "bastante seguro"],
    band_LOW: ["a guess", "una suposición"],
    band_chosen: ["chosen by you", "elegido por ti"],
    footer_by: ["by {provider}", "por {provider}"],
    sources: ["Sources:", "Fuentes:"],
    loading: ["Loading…", "Cargando…"],
    no_decisions: ["No decisions recorded yet.", "Aún no hay decisiones registradas."],
    decision_recorded: ["Decision recorded.", "Decisión registrada."],
    results_count: ["{count} results", "{count} resultados"],
    results_count_one: ["{count} result", "{count} resultado"],
    open_project: ["Open {name}", "Abrir {name}"],
    not_installed: ["not installed", "no instalado"],
    provider_now: ["Answers now come from {name}.", "Las respuestas vienen ahora de {name}."],
    uploading: ["Uploading…", "Subiendo…"],
    upload_failed: ["Could not upload {name}.", "No se pudo subir {name}."],
    uploaded: ["Added {name} to the project.", "Se añadió {name} al proyecto."],
    upload_duplicate: ["{name} was already in the project.", "{name} ya estaba en el proyecto."],
    evidence_check: ["Evidence check", "Comprobación de la evidencia"],
    evidence_verified: ["“{text}” ({who}) {segment}", "“{text}” ({who}) {segment}"],
    evidence_check_line: [
      "to check: “{text}” ({who}) {segment}: close but not the same words",
      "por revisar: “{text}” ({who}) {segment}: parecido, pero no son las mismas palabras",
    ],
    evidence_misattributed: [
      "re-pointed: “{text}” was cited as {cited}; said in {segment} ({who})",
      "reasignada: “{text}” se citó como {cited}; se dijo en {segment} ({who})",
    ],
    evidence_unsupported: [
      "removed: “{quote}” ({cited}): not found in any session",
      "eliminada: “{quote}” ({cited}): no aparece en ninguna sesión",
    ],
    evidence_not_evidence: ["not counted: “{quote}”: {reason}", "no cuenta: “{quote}”: {reason}"],
    evidence_theme: [
      "{theme}: {count} of {total} participants ({people})",
      "{theme}: {count} de {total} participantes ({people})",
    ],
    evidence_interpretation: [
      "{theme}: no verified quote; the model's interpretation",
      "{theme}: ninguna cita verificada; interpretación del modelo",
    ],
    evidence_coverage: [
      "Coverage: cited {cited}; not cited {missing}",
      "Cobertura: citadas {cited}; sin citar {missing}",
    ],
    evidence_uploaded: [
      "Added {name} as evidence session {code} ({segments} segments).",
      "Se añadió {name} como sesión de evidencia {code} ({segments} fragmentos).",
    ],
    evidence_duplicate: [
      "{name} was already here as {code}.",
      "{name} ya estaba aquí como {code}.",
    ],
    evidence_ask_moderator: [
      "Which speaker is the moderator in {name}?",
      "¿Qué persona modera en {name}?",
    ],
    evidence_ask_columns: [
      "Which column of {name} holds the text?",
      "¿Qué columna de {name} tiene el texto?",
    ],
    evidence_ask_labels: [
      "{name} has no speaker labels. Add it as one participant's notes?",
      "{name} no tiene nombres de quién habla. ¿Se añade como notas de una sola persona?",
    ],
    evidence_no_moderator: ["Nobody moderates", "Nadie modera"],
    evidence_as_notes: ["Add as notes", "Añadir como notas"],
    evidence_not_added: ["{name} was not added.", "{name} no se añadió."],
    upload_truncated: ["(truncated to the size limit)", "(recortado al límite de tamaño)"],
    methods: ["Methods", "Métodos"],
    methods_count: [
      "{count} methods, {team} of them your team's own",
      "{count} métodos, {team} de ellos propios de tu equipo",
    ],
    team_method: ["your team's", "de tu equipo"],
    team_replaces: ["your team's, in place of the bundled one", "de tu equipo, en lugar del incluido"],
    type_brief: ["brief", "brief"],
    type_research: ["research", "investigación"],
    type_design: ["design", "diseño"],
    type_other: ["other", "otro"],
    conversation: ["Conversation", "Conversación"],
    jump_latest: ["Jump to latest ↓", "Ir al final ↓"],
    dark_mode: ["Dark mode", "Modo oscuro"],
    tree: ["Tree", "Árbol"],
    files: ["Files", "Archivos"],
    tree_hint: [
      "Every turn of this project; a branch starts beside the turn it forks from.",
      "Todos los turnos del proyecto; una rama empieza junto al turno del que sale.",
    ],
    tree_empty: ["No turns yet.", "Aún no hay turnos."],
    tree_goto: ["Go to turn {number}", "Ir al turno {number}"],
    tree_fork: ["Fork from turn {number}", "Abrir una rama en el turno {number}"],
    tree_here: ["you are here", "estás aquí"],
    tree_moved: ["Now at turn {number}.", "Ahora en el turno {number}."],
    role_user: ["you", "tú"],
    role_agent: ["design-agent", "design-agent"],
    no_files: ["No files in this project yet: add a brief below the conversation.",
      "Aún no hay archivos en este proyecto: añade un brief bajo la conversación."],
    file_line: ["{type} · {chars} characters · {date}", "{type} · {chars} caracteres · {date}"],
    welcome_title: ["Welcome to design-agent", "Te damos la bienvenida a design-agent"],
    welcome_text: [
      "Describe what you are designing, in English or Spanish: design-agent picks the method, answers with its guide, and keeps every decision of the project. Try one of these:",
      "Describe lo que estás diseñando, en español o en inglés: design-agent elige el método, responde con su guía y guarda cada decisión del proyecto. Prueba una de estas:",
    ],
    empty_title: ["Nothing said in this project yet", "Aún no se ha dicho nada en este proyecto"],
    empty_text: [
      "Ask for a method, tell design-agent what you decided, or add a brief. For example:",
      "Pide un método, cuenta a design-agent qué habéis decidido o añade un brief. Por ejemplo:",
    ],
    example_1: ["Plan a usability test for our checkout", "Planifica un test de usabilidad del checkout"],
    example_2: ["Write personas for first-time buyers", "Crea personas para compradores primerizos"],
    example_3: ["Create a project called Ledgerly", "Crea un proyecto llamado Ledgerly"],
    example_4: ["What have we decided?", "¿Qué hemos decidido?"],
    copy: ["Copy", "Copiar"],
    copy_label: ["Copy this answer as Markdown", "Copiar esta respuesta en Markdown"],
    copied: ["Copied the answer (Markdown).", "Respuesta copiada (Markdown)."],
    edit: ["Edit", "Editar"],
    edit_label: ["Edit this request and send it as a new branch", "Editar esta petición y enviarla como una rama nueva"],
    edit_send: ["Send as a new branch", "Enviar como rama nueva"],
    retry_with: ["Try again with…", "Repetir con…"],
    compare_with: ["Compare with…", "Comparar con…"],
    retry_phrase: ["try that again with {provider}", "repítelo con {provider}"],
    compare_phrase: ["compare with {provider}", "compara con {provider}"],
    keep_phrase: ["{number} because {reason}", "{number} porque {reason}"],
    keep_this: ["Keep this one", "Quedarme con esta"],
    keep_reason: ["Why keep it?", "¿Por qué esta?"],
    compare_title: ["Answer {number}: {provider}", "Respuesta {number}: {provider}"],
    branch_prev: ["Previous version", "Versión anterior"],
    branch_next: ["Next version", "Versión siguiente"],
    branch_of: ["{index} of {count}", "{index} de {count}"],
    yes_word: ["yes", "sí"],
    no_word: ["no", "no"],
    yes: ["Yes", "Sí"],
    no: ["No", "No"],
    keep_all: ["Keep all", "Guardar todas"],
    keep_one: ["Keep {number}", "Guardar la {number}"],
    not_now: ["Not now", "Ahora no"],
    download_report: ["Download the report ({format})", "Descargar el informe ({format})"],
    open_turn: ["Open turn {number}", "Abrir el turno {number}"],
    show_in_conversation: ["Show in the conversation", "Ver en la conversación"],
  };

  var language = "en";

  /* A count in words: KEY_one for exactly 1 (when there is one), KEY otherwise. */
  function tn(key, count, vars) {
    var all = Object.assign({ count: count }, vars || {});
    return t(Number(count) === 1 && STRINGS[key + "_one"] ? key + "_one" : key, all);
  }

    function t(key, vars, fallback) {
    var pair = STRINGS[key];
    var template = pair ? pair[language === "es" ? 1 : 0] : fallback !== undefined ? fallback : key;
    return String(template).replace(/\{(\w+)\}/g, function (whole, name) {
      return vars && vars[name] !== undefined && vars[name] !== null ? String(vars[name]) : whole;
    });
  }

  function setLanguage(lang) {
    language = lang === "es" ? "es" : "en";
  }

  function apply(root) {
    root.querySelectorAll("[data-i18n]").forEach(function (node) {
      node.textContent = t(node.getAttribute("data-i18n"));
    });
    ["placeholder", "title", "aria-label"].forEach(function (attribute) {
      root.querySelectorAll("[data-i18n-" + attribute + "]").forEach(function (node) {
        node.setAttribute(attribute, t(node.getAttribute("data-i18n-" + attribute)));
      });
    });
  }

  window.DAI18n = {
    t: t, tn: tn, setLanguage: setLanguage, apply: apply, strings: STRINGS,
    language: function () {
      return language;
    },
  };
})();
