"""What design-agent says about projects, providers, files and memory, in English and Spanish."""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, tuple[str, str]] = {
    "tree": (
        "The conversation tree of '{name}' (turn numbers, the task, branch names):\n{lines}",
        "El árbol de la conversación de '{name}' (números de turno, tarea, ramas):\n{lines}",
    ),
    "continuing": (
        "Continuing '{name}' from turn {number}{branch}.",
        "Sigues en '{name}' desde el turno {number}{branch}.",
    ),
    "banner_resume": (
        "Continuing from turn {number}, where you left this conversation (/tree shows the others).",
        "Sigues desde el turno {number}, donde dejaste esta conversación (/tree muestra las "
        "demás).",
    ),
    "compare_nothing": (
        "There is no answer yet to compare: ask for something first, then /compare.",
        "Todavía no hay ninguna respuesta que comparar: pide algo primero y luego /compare.",
    ),
    "compare_same": (
        "Compare two different providers (you named {name} twice).",
        "Compara dos proveedores distintos (has nombrado {name} dos veces).",
    ),
    "compare_running": (
        "Asking {first} and {second} the same request at once...",
        "Preguntando lo mismo a {first} y a {second} a la vez...",
    ),
    "compare_answer": ("## {number}. {provider}", "## {number}. {provider}"),
    "compare_question": (
        "Which answer do you keep, 1 or 2? Say why (e.g. '2 because it covers recruiting'); "
        "the other stays on its branch.",
        "¿Con qué respuesta te quedas, 1 o 2? Di por qué (p. ej. '2 porque cubre el "
        "reclutamiento'); la otra queda en su rama.",
    ),
    "compare_kept": (
        "Kept {provider}'s answer; the other stays on its branch. {recorded}",
        "Me quedo con la respuesta de {provider}; la otra queda en su rama. {recorded}",
    ),
    "compare_decision": (
        "Keep {provider}'s answer for {task}",
        "Quedarse con la respuesta de {provider} para {task}",
    ),
    "tree_here": ("you are here", "estás aquí"),
    "tree_unnamed": ("unnamed branch", "rama sin nombre"),
    "tree_goto": (
        "Now at turn {number} of '{name}': your next message continues from there "
        "(later turns stay on their branch; /tree shows them).",
        "Ahora estás en el turno {number} de '{name}': tu próximo mensaje sigue desde ahí "
        "(los turnos posteriores quedan en su rama; /tree los muestra).",
    ),
    "tree_forked": (
        "Started a branch ({name}) at turn {number}: your next message goes on it.",
        "He abierto una rama ({name}) en el turno {number}: tu próximo mensaje va en ella.",
    ),
    "tree_back_confirm": (
        "Go back to turn {number} of '{name}'{before}? Later turns stay on their branch. (yes/no)",
        "¿Vuelvo al turno {number} de '{name}'{before}? Los turnos posteriores quedan en su "
        "rama. (sí/no)",
    ),
    "tree_back_before": (" (before '{decision}')", " (antes de '{decision}')"),
    "tree_back_no": (
        "Staying where you are in '{name}'.",
        "Sigues donde estabas en '{name}'.",
    ),
    "tree_no_decision": (
        "No decision in '{name}' matches '{asked}'. /tree shows the turns; /goto TURN goes "
        "back to one.",
        "Ninguna decisión de '{name}' coincide con '{asked}'. /tree muestra los turnos; "
        "/goto TURNO vuelve a uno.",
    ),
    "tree_renamed": ("Renamed {old} to '{name}'.", "He renombrado {old} como '{name}'."),
    "tree_branches": ("Branches:\n{lines}", "Ramas:\n{lines}"),
    "tree_at_turn": ("at turn {number}", "en el turno {number}"),
    "preview_action": (
        "This message is an action ({action}), not a design request: nothing would be sent "
        "to a provider. --show-prompt previews design requests.",
        "Este mensaje es una acción ({action}), no una petición de diseño: no se enviaría nada "
        "a un proveedor. --show-prompt muestra las peticiones de diseño.",
    ),
    "preview_no_method": (
        "No design method matches this message, so a turn would ask what you need; "
        "nothing to preview. Try naming the deliverable (e.g. 'a usability test plan').",
        "Ningún método de diseño encaja con este mensaje, así que un turno te preguntaría qué "
        "necesitas; no hay nada que mostrar. Prueba a nombrar el entregable (p. ej. 'un plan "
        "de test de usabilidad').",
    ),
    "created": (
        "Created and switched to project '{name}'.",
        "He creado el proyecto '{name}' y es el activo.",
    ),
    "ask_name": (
        "What should the new project be called?",
        "¿Cómo se llamará el nuevo proyecto?",
    ),
    "q_users": (
        "Who are the users of {name}?",
        "¿Quiénes son los usuarios de {name}?",
    ),
    "q_problem": (
        "What problem are you solving for them?",
        "¿Qué problema les estás resolviendo?",
    ),
    "q_constraints": (
        "Any constraints (deadline, budget, platform, team)? Say 'skip' to leave it.",
        "¿Alguna restricción (plazo, presupuesto, plataforma, equipo)? Di 'saltar' para omitir.",
    ),
    "context_saved": (
        "Thanks, I saved that as the project's context. What would you like to work on?",
        "Gracias, lo he guardado como contexto del proyecto. ¿En qué quieres trabajar?",
    ),
    "switched": ("Switched to '{name}'. {summary}", "Ahora estás en '{name}'. {summary}"),
    "did_you_mean": (
        "No project is called '{asked}'. Did you mean '{name}'? (yes/no)",
        "No hay ningún proyecto '{asked}'. ¿Te refieres a '{name}'? (sí/no)",
    ),
    "no_such_project": (
        "No project matches '{asked}'. Your projects: {names}.",
        "Ningún proyecto coincide con '{asked}'. Tus proyectos: {names}.",
    ),
    "no_projects": (
        "You have no projects yet. Say 'start a new project for ...' to create one.",
        "Aún no tienes proyectos. Di 'empiezo un proyecto nuevo para ...' para crear uno.",
    ),
    "projects": ("Your projects:\n{lines}", "Tus proyectos:\n{lines}"),
    "answer_cut": ("[answer cut at {size}]", "[respuesta cortada en {size}]"),
    "project_line": (
        "{mark} {name} ({turns} turns, {decisions} decisions)",
        "{mark} {name} ({turns} turnos, {decisions} decisiones)",
    ),
    "confirm_delete": (
        "Delete project '{name}'? This removes {turns} turns, {files} files and {decisions} "
        "decisions, what I noted from them and its conversation state, and wipes them from "
        "the database file; it cannot be undone. Type 'yes' to delete it.",
        "¿Borrar el proyecto '{name}'? Se eliminarán {turns} turnos, {files} archivos y "
        "{decisions} decisiones, lo que anoté de ellas y el estado de la conversación, "
        "borrados también del archivo de datos, sin posibilidad de deshacerlo. "
        "Escribe 'sí' para borrarlo.",
    ),
    "deleted": (
        "Deleted '{name}' ({turns} turns, {files} files, {decisions} decisions).",
        "He borrado '{name}' ({turns} turnos, {files} archivos, {decisions} decisiones).",
    ),
    "kept": ("OK, nothing was deleted.", "De acuerdo, no he borrado nada."),
    "not_switched": ("OK, staying in '{name}'.", "De acuerdo, seguimos en '{name}'."),
    "renamed": ("Renamed '{old}' to '{new}'.", "He renombrado '{old}' a '{new}'."),
    "provider_set": (
        "From now on answers come from {display}; your history is kept.{warning}",
        "A partir de ahora responde {display}; tu historial se conserva.{warning}",
    ),
    "provider_missing": (
        " Note: {display} is not installed yet ({hint}).",
        " Ojo: {display} aún no está instalado ({hint}).",
    ),
    "provider_env": (
        " DESIGN_AGENT_PROVIDER={value} is set in your environment: it will win again in "
        "your next session.",
        " DESIGN_AGENT_PROVIDER={value} está definida en tu entorno: volverá a mandar en tu "
        "próxima sesión.",
    ),
    "file_added": (
        "Added {filename} as a {file_type} ({chars} characters{cut}). I'll use it as project "
        "context.{preview}",
        "He añadido {filename} como {file_type} ({chars} caracteres{cut}). Lo usaré como "
        "contexto del proyecto.{preview}",
    ),
    "preferences_ignored": (
        "Ignored this project's saved {problems}; your settings apply instead.",
        "He ignorado lo guardado en este proyecto ({problems}); se aplica tu configuración.",
    ),
    "file_truncated": (
        "; truncated: only its beginning is kept, at most {limit:,} characters",
        "; recortado: solo guardo el principio, como mucho {limit:,} caracteres",
    ),
    "file_duplicate": (
        "{filename} is already in this project (same content); nothing added.",
        "{filename} ya está en este proyecto (mismo contenido); no he añadido nada.",
    ),
    "recall_none": (
        "I found no recorded decision about that in '{name}'.",
        "No encuentro ninguna decisión registrada sobre eso en '{name}'.",
    ),
    "recall": (
        "Decisions in '{name}' that match:\n{lines}",
        "Decisiones de '{name}' que encajan:\n{lines}",
    ),
    "branch_label": (" (turn {number}, branch '{name}')", " (turno {number}, rama '{name}')"),
    "branch_label_unnamed": (
        " (turn {number}, an unnamed branch)",
        " (turno {number}, una rama sin nombre)",
    ),
    "recall_line": (
        "- {date}{turn}: {decision}. Why: {rationale}",
        "- {date}{turn}: {decision}. Por qué: {rationale}",
    ),
    "search_none": ("Nothing found for '{query}'.", "No he encontrado nada sobre '{query}'."),
    "search": ("Found in {where}:\n{lines}", "Encontrado en {where}:\n{lines}"),
    "all_projects": ("all projects", "todos los proyectos"),
    "default_project": (
        "No project was active, so I created '{name}' for this conversation.",
        "No había ningún proyecto activo; he creado '{name}' para esta conversación.",
    ),
    "choose": (
        "I'm not sure which method you need. Reply with a number or describe it in other words:",
        "No estoy seguro de qué método necesitas. Responde con un número o descríbelo "
        "de otra forma:",
    ),
    "summary": (
        "Last conversation {last}; {decisions} decision(s) recorded.",
        "Última conversación {last}; {decisions} decisión(es) registrada(s).",
    ),
    "summary_empty": ("Nothing recorded yet.", "Aún no hay nada registrado."),
    # -- actions: projects -------------------------------------------------------------------
    "no_active_project": (
        "There is no active project yet. Say 'start a new project for ...' or 'switch to NAME'.",
        "Aún no hay ningún proyecto activo. Di 'empiezo un proyecto nuevo para ...' o "
        "'cambia a NOMBRE'.",
    ),
    "last_about": ("{when}, about {task}", "{when}, sobre {task}"),
    "already_in": ("You are already in '{name}'. {summary}", "Ya estás en '{name}'. {summary}"),
    "not_switched_none": ("OK, no switch.", "De acuerdo, no cambio de proyecto."),
    "project_exists": (
        "A project named '{name}' already exists. Say 'switch to {name}' to work on it, "
        "or choose another name.",
        "Ya existe un proyecto llamado '{name}'. Di 'cambia a {name}' para trabajar en él, "
        "o elige otro nombre.",
    ),
    "no_such_project_guess": (
        "No project is called '{asked}'; did you mean '{name}'? Say it again with that name.",
        "No hay ningún proyecto '{asked}'; ¿te refieres a '{name}'? Dilo de nuevo con ese nombre.",
    ),
    "delete_changed": (
        "'{name}' changed since you confirmed (it has {turns} turns, {files} files and "
        "{decisions} decisions now), so nothing was deleted. Ask again to delete it.",
        "'{name}' ha cambiado desde que lo confirmaste (ahora tiene {turns} turnos, {files} "
        "archivos y {decisions} decisiones), así que no he borrado nada. Pídelo de nuevo.",
    ),
    # -- actions: providers ------------------------------------------------------------------
    "provider_unknown": (
        "I don't know a provider called '{name}'; choose one of: {choices}.",
        "No conozco ningún proveedor '{name}'; elige uno de: {choices}.",
    ),
    "provider_not_installed": (
        "{display} is not installed ({hint}); still using {current}.",
        "{display} no está instalado ({hint}); sigo usando {current}.",
    ),
    "provider_bad_path": (
        "{display}: '{path}' (settings.yaml bins or {variable}) is not an executable file; "
        "still using {current}.",
        "{display}: '{path}' (bins de settings.yaml o {variable}) no es un ejecutable; "
        "sigo usando {current}.",
    ),
    # -- actions: files ----------------------------------------------------------------------
    "file_missing": (
        "There is no file at {path}. Check the path (quote it if it has spaces).",
        "No hay ningún archivo en {path}. Revisa la ruta (entre comillas si tiene espacios).",
    ),
    "file_is_folder": (
        "{path} is a folder; give me one file in it (text, markdown or PDF).",
        "{path} es una carpeta; dame un archivo de dentro (texto, markdown o PDF).",
    ),
    "file_refused": ("Could not add {path}: {reason}", "No he podido añadir {path}: {reason}"),
    "file_type_brief": ("brief", "brief"),
    "file_type_research": ("research note", "nota de investigación"),
    "file_type_design": ("design file", "archivo de diseño"),
    "file_type_other": ("document", "documento"),
    # -- actions: memory and history ---------------------------------------------------------
    "turn_label": (" (turn #{id})", " (turno #{id})"),
    "history": ("Latest turns in '{name}':\n{lines}", "Últimos turnos de '{name}':\n{lines}"),
    "history_empty": (
        "No conversation in '{name}' yet.",
        "Aún no hay conversación en '{name}'.",
    ),
    "role_user": ("user", "tú"),
    "role_agent": ("agent", "agente"),
    "status_cancelled": ("cancelled", "cancelado"),
    "status_failed": ("failed", "fallido"),
    # -- actions: decisions ------------------------------------------------------------------
    "decision_recorded": (
        "Recorded in '{name}': {decision}. Why: {rationale}",
        "Registrado en '{name}': {decision}. Por qué: {rationale}",
    ),
    "decisions_none": (
        "No decisions recorded in '{name}' yet. Say 'we decided X because Y' to record one.",
        "Aún no hay decisiones en '{name}'. Di 'hemos decidido X porque Y' para registrar una.",
    ),
    "decisions": ("Decisions in '{name}':\n{lines}", "Decisiones de '{name}':\n{lines}"),
    "decision_line": (
        "- {date}: {decision}. Why: {rationale}",
        "- {date}: {decision}. Por qué: {rationale}",
    ),
    "decisions_saved": (
        "Saved {count} decision(s):\n{lines}",
        "He guardado {count} decisión(es):\n{lines}",
    ),
    "decisions_dropped": (
        "OK, I did not save them.",
        "De acuerdo, no las he guardado.",
    ),
    # -- actions: catalogue and conversation -------------------------------------------------
    "methods": (
        "I know {count} design methods, by specialist:\n{lines}",
        "Conozco {count} métodos de diseño, por especialista:\n{lines}",
    ),
    "help": (
        "Tell me what you need in plain words. For example:\n"
        "- start a new project for a mobile checkout redesign\n"
        "- plan a usability test for the sign-up flow\n"
        "- map the customer journey for first-time buyers\n"
        "- we decided to ship guest checkout because 40% abandon at sign-up\n"
        "- why did we choose moderated testing?\n"
        "- switch to Ledgerly / what projects do I have?\n"
        "- use Gemini from now on / what methods do you know?",
        "Dime lo que necesitas con tus palabras. Por ejemplo:\n"
        "- empiezo un proyecto nuevo para rediseñar el checkout móvil\n"
        "- planifica un test de usabilidad del registro\n"
        "- haz un mapa de viaje del cliente para compradores primerizos\n"
        "- hemos decidido permitir comprar sin cuenta porque el 40% abandona al registrarse\n"
        "- ¿por qué elegimos el test moderado?\n"
        "- cambia a Ledgerly / ¿qué proyectos tengo?\n"
        "- usa Gemini a partir de ahora / ¿qué métodos conoces?",
    ),
    "small_talk": ("{reply} {hint}", "{reply} {hint}"),
    "small_greeting": ("Hi!", "¡Hola!"),
    "small_thanks": ("You're welcome.", "De nada."),
    "small_how_are_you": (
        "All good, thanks, and ready to work.",
        "Muy bien, gracias, y con ganas de trabajar.",
    ),
    "small_bye": (
        "Bye! Everything is saved; run design-agent to pick up where you left off.",
        "¡Hasta luego! Todo queda guardado; ejecuta design-agent para seguir donde lo dejaste.",
    ),
    "hint_no_project": (
        "Tell me about your project, e.g. 'start a new project for a mobile checkout redesign'.",
        "Cuéntame tu proyecto, p. ej. 'empiezo un proyecto nuevo para rediseñar el checkout'.",
    ),
    "hint_project": (
        "What shall we work on in '{name}'? Say 'help' for examples.",
        "¿En qué trabajamos en '{name}'? Di 'ayuda' para ver ejemplos.",
    ),
    "pending_dropped": ("OK, dropped.", "De acuerdo, lo dejo."),
    # -- slash commands ----------------------------------------------------------------------
    "slash_usage": ("Usage: {usage}", "Uso: {usage}"),
    "slash_invalid": ("That does not work: {reason}", "Así no funciona: {reason}"),
    "slash_ambiguous": ("/{word} is ambiguous: {names}", "/{word} es ambiguo: {names}"),
    "slash_unknown": (
        "Unknown command /{word}; /help lists them.",
        "No conozco /{word}; /help los muestra.",
    ),
    "slash_say_it": (
        "Or just say it: 'switch to Checkout', 'use gemini', 'why did we ...?'",
        "O simplemente dilo: 'cambia a Checkout', 'usa gemini', '¿por qué decidimos ...?'",
    ),
    "nothing_to_answer": (
        "There is no open question to answer (a question lapses after {minutes} minutes). "
        "What would you like to work on?",
        "No hay ninguna pregunta abierta que responder (una pregunta caduca a los {minutes} "
        "minutos). ¿En qué quieres trabajar?",
    ),
    "nothing_pending": (
        "There was nothing pending to cancel.",
        "No había nada pendiente que cancelar.",
    ),
    "rerender_none": (
        "There is no answer to redo yet; ask me for something first, e.g. 'plan a usability test'.",
        "Aún no hay ninguna respuesta que rehacer; pídeme algo primero, p. ej. 'planifica un "
        "test de usabilidad'.",
    ),
    # -- the shell ---------------------------------------------------------------------------
    "banner": (
        "design-agent {version}: your product design team in the terminal.",
        "design-agent {version}: tu equipo de diseño de producto en la terminal.",
    ),
    "banner_no_project": (
        "No project yet. Tell me about it, e.g. \"I'm starting a new project for a mobile "
        'checkout redesign" (or "empiezo un proyecto nuevo para ...").',
        'Aún no hay proyecto. Cuéntame de qué va, por ejemplo "empiezo un proyecto nuevo '
        'para rediseñar el checkout móvil".',
    ),
    "banner_project": ("Project: {name}. {summary}", "Proyecto: {name}. {summary}"),
    "banner_last": ("Last conversation: {last}.", "Última conversación: {last}."),
    "banner_no_turns": ("No conversation yet.", "Aún no hay conversación."),
    "banner_hint": (
        "Type your request in English or Spanish; /help for shortcuts, exit to leave.",
        "Escribe en español o en inglés; /help para los atajos, salir para terminar.",
    ),
    "banner_pending": (
        "Still open from last time: {question}",
        "Pendiente de la última vez: {question}",
    ),
    "provider_ready": ("Provider: {display} (ready).", "Proveedor: {display} (listo)."),
    "provider_absent": (
        "Provider: {display} (not installed: {hint}).",
        "Proveedor: {display} (no instalado: {hint}).",
    ),
    "bye": (
        "Bye. Everything is saved; run design-agent to resume.",
        "Hasta luego. Todo está guardado; ejecuta design-agent para seguir.",
    ),
    "cancelled": ("Cancelled: {message}.", "Cancelado: {message}."),
    "error": ("Error: {message}", "Error: {message}"),
    # -- the turn view ------------------------------------------------------------------------
    "using_medium": (
        "Using {name} (medium confidence). Also possible: {names}.",
        "Uso {name} (confianza media). También podría ser: {names}.",
    ),
    "question_mark": ("? {question}", "? {question}"),
    "footer_tokens": ("{tokens} tokens", "{tokens} tokens"),
    "footer_checklist": ("checklist {score}", "checklist {score}"),
    "footer_not_assessed": (
        "{count} not assessed offline",
        "{count} sin evaluar offline",
    ),
    # -- the turn: task choice, answers again, proposals ------------------------------------
    "choose_again": (
        "That did not pick one. Reply with a number, or describe what you need:",
        "Eso no elige ninguno. Responde con un número o describe lo que necesitas:",
    ),
    "chosen_by_model": ("chosen by {provider}", "elegido por {provider}"),
    "assumed": (
        "the request is about {task}; no further details were given",
        "la petición trata de {task}; no se dieron más detalles",
    ),
    "redo_brief": (
        "Answer this again, much shorter: keep only what matters most.",
        "Responde de nuevo, mucho más corto: deja solo lo más importante.",
    ),
    "redo_detailed": (
        "Answer this again in more detail, with concrete steps and examples.",
        "Responde de nuevo con más detalle, con pasos y ejemplos concretos.",
    ),
    "redo_language": (
        "Answer this again in English.",
        "Responde de nuevo en español.",
    ),
    "propose_decisions": (
        "The answer proposes these decisions:\n{lines}\nSave them? (yes / no / the numbers "
        "to keep)",
        "La respuesta propone estas decisiones:\n{lines}\n¿Las guardo? (sí / no / los números "
        "que quieres guardar)",
    ),
}


def say(key: str, language: str, **values: Any) -> str:
    """The message `key` in `language` (en or es), filled with `values`."""
    english, spanish = MESSAGES[key]
    return (spanish if language == "es" else english).format(**values)


def ago(seconds: float, language: str) -> str:
    """'2 days ago' / 'hace 2 días' for a duration in seconds."""
    units = [(86400, "day", "día"), (3600, "hour", "hora"), (60, "minute", "minuto")]
    for size, en, es in units:
        count = int(seconds // size)
        if count >= 1:
            if language == "es":
                return f"hace {count} {es}{'s' if count > 1 else ''}"
            return f"{count} {en}{'s' if count > 1 else ''} ago"
    return "hace un momento" if language == "es" else "just now"
