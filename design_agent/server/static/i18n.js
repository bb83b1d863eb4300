/* Every string the page shows, in English and Spanish (as messages.py does for the CLI).
 *
 * The language follows the server: `language` in /api/v1/status, then the language of
 * each turn. Elements carry data-i18n (text), data-i18n-placeholder, data-i18n-title or
 * data-i18n-aria-label with a key; apply() fills them in the current language.
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
    attach: ["Add brief", "Añadir brief"],
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
    rename_project: ["Rename {name}", "Renombrar {name}"],
    delete_project: ["Delete {name}", "Eliminar {name}"],
    delete_title: ["Delete the project '{name}'?", "¿Eliminar el proyecto '{name}'?"],
    delete_counts: [
      "This removes {counts}. It cannot be undone.",
      "Se eliminarán {counts}. No se puede deshacer.",
    ],
    count_turns: ["{count} turns", "{count} turnos"],
    count_files: ["{count} files", "{count} archivos"],
    count_decisions: ["{count} decisions", "{count} decisiones"],
    count_branches: ["{count} branches", "{count} ramas"],
    count_metadata: ["{count} metadata entries", "{count} entradas de metadatos"],
    count_process_memory: ["{count} process notes", "{count} notas de proceso"],
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
    question: ["? {question}", "? {question}"],
    proposed_decision: ["Proposed decision", "Decisión propuesta"],
    status_complete: ["Complete", "Completado"],
    status_cancelled: ["Cancelled", "Cancelado"],
    status_failed: ["Failed", "Falló"],
    status_running: ["Running", "En curso"],
    status_needs_answer: ["Needs your answer", "Necesita tu respuesta"],
    cancelling: ["Cancelling…", "Cancelando…"],
    footer_tokens: ["{tokens} tokens", "{tokens} tokens"],
    footer_checklist: ["checklist {score}", "checklist {score}"],
    footer_not_assessed: ["{count} not assessed offline", "{count} sin evaluar offline"],
    sources: ["Sources:", "Fuentes:"],
    loading: ["Loading…", "Cargando…"],
    no_decisions: ["No decisions recorded yet.", "Aún no hay decisiones registradas."],
    decision_recorded: ["Decision recorded.", "Decisión registrada."],
    results_count: ["{count} results", "{count} resultados"],
    open_project: ["Open {name}", "Abrir {name}"],
    not_installed: ["not installed", "no instalado"],
    provider_now: ["Answers now come from {name}.", "Las respuestas vienen ahora de {name}."],
    uploading: ["Uploading…", "Subiendo…"],
    upload_failed: ["Could not upload {name}.", "No se pudo subir {name}."],
    uploaded: ["Added {name} to the project.", "Se añadió {name} al proyecto."],
    upload_duplicate: ["{name} was already in the project.", "{name} ya estaba en el proyecto."],
    upload_truncated: ["(truncated to the size limit)", "(recortado al límite de tamaño)"],
    methods: ["Methods", "Métodos"],
    methods_count: [
      "{count} methods, {team} of them your team's own",
      "{count} métodos, {team} de ellos propios de tu equipo",
    ],
    team_method: ["your team's", "de tu equipo"],
    team_replaces: ["your team's, in place of the bundled one", "de tu equipo, en lugar del incluido"],
  };

  var language = "en";

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
    t: t, setLanguage: setLanguage, apply: apply, strings: STRINGS,
    language: function () {
      return language;
    },
  };
})();
