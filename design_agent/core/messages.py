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
        "- {date}{by}{turn}: {decision}. Why: {rationale}",
        "- {date}{by}{turn}: {decision}. Por qué: {rationale}",
    ),
    # Who made a decision (a team's database): after its date.
    "by_person": (" by {name}", " por {name}"),
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
    "evidence_added": (
        "Added {count} evidence file(s) to '{project}': {sessions}. Research methods (affinity "
        "map, synthesis, personas...) will quote them, and every quote is checked.",
        "He añadido {count} archivo(s) de evidencia a '{project}': {sessions}. Los métodos de "
        "investigación (afinidad, síntesis, personas...) los citarán, y compruebo cada cita.",
    ),
    "draft_heading": ("## Draft groups (offline)", "## Grupos provisionales (sin modelo)"),
    "draft_note": (
        "No AI model wrote this: the participants' segments that speak of your request are "
        "grouped by the words they share. These are draft groups, not themes; name them "
        "yourself, or ask again with a model. Each quote is a participant's own words.",
        "Esto no lo ha escrito ningún modelo de IA: los fragmentos de los participantes que "
        "hablan de tu petición se agrupan por las palabras que comparten. Son grupos "
        "provisionales, no temas; ponles nombre tú, o pídelo de nuevo con un modelo. Cada "
        "cita son palabras literales de un participante.",
    ),
    "draft_group": ("Group {n}: {terms}", "Grupo {n}: {terms}"),
    "draft_segments": (
        "{segments} segment(s), from {people}.",
        "{segments} fragmento(s), de {people}.",
    ),
    "draft_kwic": ("### Your words in context", "### Tus palabras en contexto"),
    "draft_facts": (
        "### Survey statistics (computed)",
        "### Estadísticas de las encuestas (calculadas)",
    ),
    "evidence_ask_moderator": (
        "Which speaker is the moderator in {file}: {options}? (a name, a number, or 'none')",
        "¿Quién modera en {file}: {options}? (un nombre, un número, o 'ninguno')",
    ),
    "evidence_ask_columns": (
        "Which column of {file} holds the text of each review or ticket?\n{lines}",
        "¿Qué columna de {file} tiene el texto de cada reseña o ticket?\n{lines}",
    ),
    "evidence_ask_labels": (
        "{file} has no speaker labels, so who said what cannot be told. Add it as one "
        "participant's notes (every paragraph theirs)? Yes, or no to leave it out.",
        "{file} no dice quién habla en cada línea. ¿Lo añado como notas de un solo "
        "participante (cada párrafo suyo)? Sí, o no para dejarlo fuera.",
    ),
    "evidence_nothing_left": (
        "Every file was left out; nothing added.",
        "Todos los archivos han quedado fuera; no he añadido nada.",
    ),
    "evidence_duplicate": (
        "{source} is already here as {code}; nothing changed.",
        "{source} ya está aquí como {code}; no he cambiado nada.",
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
        "- {date}{by}{where}: {decision}. Why: {rationale}",
        "- {date}{by}{where}: {decision}. Por qué: {rationale}",
    ),
    # -- actions: decisions that change (decision_changes.py) --------------------------------
    "decisions_all": (
        "Decisions in '{name}', on every branch:\n{lines}",
        "Decisiones de '{name}', en todas las ramas:\n{lines}",
    ),
    "decisions_none_current": (
        "No current decisions in '{name}'.",
        "No hay decisiones vigentes en '{name}'.",
    ),
    "decisions_none_here": (
        "No decisions on this branch of '{name}'; {count} on other branches (list them with "
        "'decisions list --all-branches' or /decisions all).",
        "No hay decisiones en esta rama de '{name}'; hay {count} en otras ramas (lístalas con "
        "'decisions list --all-branches' o /decisions all).",
    ),
    "decisions_elsewhere_note": (
        "{count} more on other branches (list them with 'decisions list --all-branches' or "
        "/decisions all).",
        "{count} más en otras ramas (lístalas con 'decisions list --all-branches' o "
        "/decisions all).",
    ),
    "decisions_changed_note": (
        "Not listed: {superseded} replaced and {retired} retired; 'why did we ...?' shows what "
        "a decision replaced, 'decisions list --history' shows them all.",
        "Sin listar: {superseded} sustituida(s) y {retired} retirada(s); '¿por qué decidimos "
        "...?' muestra a cuál sustituyó una decisión, 'decisions list --history' las muestra "
        "todas.",
    ),
    "decision_supersede_confirm": (
        "Replace the decision '{old}' ({date}) with '{decision}'{why}? The old one stays in "
        "the history. (yes / no)",
        "¿Sustituyo la decisión '{old}' ({date}) por '{decision}'{why}? La anterior queda en "
        "el historial. (sí / no)",
    ),
    "decision_retire_confirm": (
        "Retire the decision '{old}' ({date}){why}? It will no longer count as decided and "
        "stays in the history. (yes / no)",
        "¿Retiro la decisión '{old}' ({date}){why}? Dejará de contar como decidida y queda en "
        "el historial. (sí / no)",
    ),
    "decision_change_why": (" (why: {why})", " (por qué: {why})"),
    "decision_supersede_which": (
        "Which decision does '{decision}' replace?\n{lines}\n(the number, or no)",
        "¿Qué decisión sustituye '{decision}'?\n{lines}\n(el número, o no)",
    ),
    "decision_retire_which": (
        "Which decision should I retire?\n{lines}\n(the number, or no)",
        "¿Qué decisión retiro?\n{lines}\n(el número, o no)",
    ),
    "decision_change_which_number": (
        "Which one? Say its number.",
        "¿Cuál? Dime su número.",
    ),
    "decision_change_no": (
        "Nothing changed; the decisions stay as they were.",
        "No he cambiado nada; las decisiones siguen como estaban.",
    ),
    "decision_change_none": (
        "There are no current decisions in '{name}' to change. Say 'we decided X because Y' "
        "to record one.",
        "No hay decisiones vigentes en '{name}' que cambiar. Di 'hemos decidido X porque Y' "
        "para registrar una.",
    ),
    "decision_change_none_here": (
        "There are no decisions on this branch of '{name}' to change; {count} on other "
        "branches (list them with 'decisions list --all-branches' or /decisions all).",
        "No hay decisiones en esta rama de '{name}' que cambiar; hay {count} en otras ramas "
        "(lístalas con 'decisions list --all-branches' o /decisions all).",
    ),
    "decision_change_gone": (
        "'{old}' was already replaced or retired; nothing changed.",
        "'{old}' ya estaba sustituida o retirada; no he cambiado nada.",
    ),
    "decision_superseded": (
        "Replaced in '{name}': '{old}' is now '{decision}'. Why: {why}. The old decision stays "
        "in the history.",
        "Sustituida en '{name}': '{old}' ahora es '{decision}'. Por qué: {why}. La anterior "
        "queda en el historial.",
    ),
    "decision_retired": (
        "Retired in '{name}': '{old}'. Why: {why}. It no longer counts as decided and stays "
        "in the history.",
        "Retirada en '{name}': '{old}'. Por qué: {why}. Ya no cuenta como decidida y queda en "
        "el historial.",
    ),
    "decision_edited": (
        "Decision {old_id} of '{name}' is replaced by decision {id}: {decision}. Why: {why}. "
        "The old version stays in the history (decisions list --history).",
        "La decisión {old_id} de '{name}' queda sustituida por la decisión {id}: {decision}. "
        "Por qué: {why}. La versión anterior queda en el historial (decisions list --history).",
    ),
    "decision_retired_cli": (
        "Decision {id} of '{name}' is retired: {decision}. It stays in the history "
        "(decisions list --history).",
        "La decisión {id} de '{name}' queda retirada: {decision}. Sigue en el historial "
        "(decisions list --history).",
    ),
    "recall_replaced": (
        "  It replaced '{old}' (decided {old_date}) on {date}.",
        "  Sustituyó a '{old}' (decidida el {old_date}) el {date}.",
    ),
    "recall_earlier": (
        "  ({count} earlier version(s) before that.)",
        "  ({count} versión(es) anterior(es) antes de esa.)",
    ),
    "recall_retired": (
        "  Retired on {date}; it no longer counts as decided. Why: {why}",
        "  Retirada el {date}; ya no cuenta como decidida. Por qué: {why}",
    ),
    "decisions_saved": (
        "Saved {count} decision(s):\n{lines}",
        "He guardado {count} decisión(es):\n{lines}",
    ),
    "which_project": (
        "'{asked}' fits more than one project. Which one?\n{lines}",
        "'{asked}' encaja con más de un proyecto. ¿Cuál?\n{lines}",
    ),
    "several_projects": (
        "'{asked}' fits more than one project ({names}); say its whole name",
        "'{asked}' encaja con más de un proyecto ({names}); di su nombre completo",
    ),
    "interview_dropped": (
        "OK, no more questions about it. Tell me what you need.",
        "De acuerdo, no te pregunto más. Dime qué necesitas.",
    ),
    "ask_name_again": (
        "Got it. And what should the project be called?",
        "Entendido. ¿Y cómo se llamará el proyecto?",
    ),
    "create_dropped": (
        "OK, no new project for now.",
        "De acuerdo, de momento no creo ningún proyecto.",
    ),
    "still_open": ("Still open: {question}", "Sigue pendiente: {question}"),
    "reply_unclear": (
        "I did not get which one you mean. {question}",
        "No he entendido cuál quieres. {question}",
    ),
    "reply_out_of_range": (
        "There is no number {number}: there are {count} to choose from.",
        "No hay un número {number}: hay {count} para elegir.",
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
        "{count} for a person to judge",
        "{count} para que juzgue una persona",
    ),
    # -- the review of an answer (knowledge/review/, issue 26) ------------------------------
    "review_missing_part": (
        "missing part: {part} (no heading covers it)",
        "falta la parte «{part}» (ningún encabezado la trata)",
    ),
    "review_part_found": ('under "{heading}"', "en «{heading}»"),
    "review_invented_citation": (
        "cites [{source} > {heading}], a section {source} does not have",
        "cita [{source} > {heading}], una sección que {source} no tiene",
    ),
    "review_unknown_source": (
        "cites [{source} > {heading}], but {source} is none of the guides",
        "cita [{source} > {heading}], pero {source} no es ninguna de las guías",
    ),
    "review_no_citation": ("no guide section cited", "no cita ninguna sección de la guía"),
    "review_citations_ok": (
        "{count} citation(s), each a section the guides have",
        "{count} cita(s), cada una a una sección que las guías tienen",
    ),
    "review_not_sent": (
        "; {names} not among the sections sent",
        "; {names} no estaba entre las secciones enviadas",
    ),
    "review_limitations_none": (
        'Limitations: "{said}"; every plan has limitations: say what could mislead',
        "Limitaciones: «{said}»; todo plan tiene alguna limitación: di qué podría confundir",
    ),
    "review_limitations_missing": (
        "no limitations stated: say what this cannot tell or where it could mislead",
        "no se indica ninguna limitación: di qué no puede decir esto o dónde podría confundir",
    ),
    "review_limitations_ok": ('under "{heading}"', "en «{heading}»"),
    "review_confidence_missing": (
        'no confidence stated: add "Confidence: high, medium or low, because ..."',
        "no se indica la confianza: añade «Confianza: alta, media o baja, porque...»",
    ),
    "review_confidence_ok": ("{said}", "{said}"),
    "review_percentage": (
        '{value} in "{context}" cannot be over 100 %',
        "{value} en «{context}» no puede pasar del 100 %",
    ),
    "review_sample_low": (
        '"{said}" is below the {low} {unit} the guide asks for ({range})',
        "«{said}» está por debajo de los {low} {unit} que pide la guía ({range})",
    ),
    "review_sample_high": (
        '"{said}" is above the {high} {unit} the guide supports ({range})',
        "«{said}» supera los {high} {unit} que admite la guía ({range})",
    ),
    "review_sample_ok": ('"{said}"', "«{said}»"),
    "review_sample_unit_segment": ("per segment", "por segmento"),
    "review_sample_unit_study": ("in all", "en total"),
    "review_sample_none": ("no sample size stated", "no se indica el tamaño de la muestra"),
    "review_ab_sample": (
        "{stated} per arm is below the {needed} per arm that p = {p} and a change of {delta} "
        "need (16 x p x (1 - p) / d^2)",
        "{stated} por brazo está por debajo de los {needed} por brazo que piden p = {p} y un "
        "cambio de {delta} (16 x p x (1 - p) / d^2)",
    ),
    "review_inline_sum": (
        "{parts} is {right}, not {stated}",
        "{parts} es {right}, no {stated}",
    ),
    "review_table_score": (
        "{kind} score of {name} is {right}, not {stated}{ranking}",
        "la puntuación {kind} de {name} es {right}, no {stated}{ranking}",
    ),
    "review_ranking_changes": ("; the ranking changes", "; el orden cambia"),
    "review_rank_wrong": (
        "{name} is ranked {stated}, but its {kind} score puts it at {right}",
        "{name} está en el puesto {stated}, pero su puntuación {kind} lo pone en el {right}",
    ),
    "review_kano_category": (
        "Kano category of {name} is {right} (the most answers), not {stated}",
        "la categoría Kano de {name} es {right} (la más respondida), no {stated}",
    ),
    "review_kano_coefficient": (
        "{coefficient} of {name} is {right}, not {stated}",
        "{coefficient} de {name} es {right}, no {stated}",
    ),
    "review_nps": (
        "NPS is {right} ({promoters} % promoters - {detractors} % detractors), not {stated}",
        "el NPS es {right} ({promoters} % promotores - {detractors} % detractores), no {stated}",
    ),
    "review_sus_range": (
        "SUS score {stated} is outside 0-100",
        "la puntuación SUS {stated} está fuera de 0-100",
    ),
    "review_total": (
        "{column} total is {right}, not {stated}",
        "el total de {column} es {right}, no {stated}",
    ),
    "review_average": (
        "{column} average is {right}, not {stated}",
        "la media de {column} es {right}, no {stated}",
    ),
    "review_tables_ok": ("{count} row(s) recomputed", "{count} fila(s) recalculadas"),
    "review_no_table": ("no {kind} table to recompute", "no hay tabla {kind} que recalcular"),
    "review_decision": (
        'plans "{found}" against the decision "{decision}" ({date})',
        "plantea «{found}» en contra de la decisión «{decision}» ({date})",
    ),
    "review_decisions_ok": ("{count} decision(s) respected", "{count} decisión(es) respetada(s)"),
    "review_needs_reader": (
        "not assessed: needs a model or a person to judge",
        "sin evaluar: lo tiene que juzgar un modelo o una persona",
    ),
    "review_rubric_context": (
        "uses the project's facts (users, problem, constraints) where they matter",
        "usa los datos del proyecto (usuarios, problema, restricciones) donde importan",
    ),
    "review_rubric_method": (
        "applies the method to this request, not the method in general",
        "aplica el método a esta petición, no el método en general",
    ),
    "review_model_quote_missing": (
        "not assessed: the model's quote is not in the answer",
        "sin evaluar: la cita del modelo no está en la respuesta",
    ),
    "review_model_unavailable": (
        "model review unavailable: deterministic checks only",
        "revisión del modelo no disponible: solo comprobaciones deterministas",
    ),
    "review_decision_question": (
        'This answer plans "{found}", against the decision "{decision}" ({date}). Has that '
        "decision changed? (yes / no)",
        "Esta respuesta plantea «{found}», en contra de la decisión «{decision}» ({date}). "
        "¿Ha cambiado esa decisión? (sí / no)",
    ),
    "review_decision_why": (
        'changed when an answer to "{request}" planned it',
        "cambiada cuando una respuesta a «{request}» lo planteó",
    ),
    "work_reviewing_answer": ("reviewing the answer…", "revisando la respuesta…"),
    "work_doing_reviewing_answer": ("the answer was reviewed", "se revisaba la respuesta"),
    "report_checked": ("Verified: {items}.", "Verificado: {items}."),
    "report_needs_person": ("Needs a person: {items}.", "Necesita una persona: {items}."),
    "report_nothing_checked": ("Nothing was checked.", "No se comprobó nada."),
    # -- the turn: task choice, answers again, proposals ------------------------------------
    "choose_again": (
        "That did not pick one. Reply with a number, or describe what you need:",
        "Eso no elige ninguno. Responde con un número o describe lo que necesitas:",
    ),
    "chosen_by_model": ("chosen by {provider}", "elegido por {provider}"),
    "evidence_question": (
        "a question about the project's evidence ({sessions} sessions)",
        "una pregunta sobre la evidencia del proyecto ({sessions} sesiones)",
    ),
    # -- a side call to a model the turn waits on (providers/side_call.py) -------------------
    "work_choosing_method": ("choosing the method…", "eligiendo el método…"),
    "work_reading_reply": ("reading your reply…", "leyendo tu respuesta…"),
    "work_weighing_follow_up": ("reading your message…", "leyendo tu mensaje…"),
    "work_hint": ("Ctrl-C cancels", "Ctrl-C cancela"),
    "work_cancelled": (
        "stopped while {doing}; nothing was answered or saved (send the message again to retry)",
        "detenido mientras {doing}; no se respondió ni se guardó nada (envía el mensaje de "
        "nuevo para reintentar)",
    ),
    "work_doing_choosing_method": ("choosing the method", "se elegía el método"),
    "work_doing_reading_reply": ("reading your reply", "se leía tu respuesta"),
    "work_reading_evidence": (
        "reading the research sessions…",
        "leyendo las sesiones de investigación…",
    ),
    "work_doing_reading_evidence": ("the sessions were read", "se leían las sesiones"),
    # -- the check of a research answer's evidence (evidence/verify.py, turn/evidence.py) ----
    "evidence_heading": ("### Evidence check", "### Comprobación de la evidencia"),
    "evidence_summary": (
        "{quotes} quote(s) checked against the sources: {verified} verified, {check} to "
        "check, {moved} re-pointed, {removed} removed.",
        "{quotes} cita(s) comprobadas con las fuentes: {verified} verificadas, {check} por "
        "revisar, {moved} reasignadas, {removed} eliminadas.",
    ),
    "evidence_quote": ('- "{text}" ({who}) {segment}', '- "{text}" ({who}) {segment}'),
    "evidence_check_quote": (
        '- to check: "{text}" ({who}) {segment}: close but not the same words',
        '- por revisar: "{text}" ({who}) {segment}: parecido, pero no son las mismas palabras',
    ),
    "evidence_moved": (
        '- re-pointed: "{text}" was cited as {cited}; said in {segment} ({who})',
        '- reasignada: "{text}" se citó como {cited}; se dijo en {segment} ({who})',
    ),
    "evidence_removed": (
        '- removed: "{quote}" ({cited}): not found in any session',
        '- eliminada: "{quote}" ({cited}): no aparece en ninguna sesión',
    ),
    "evidence_excluded": (
        '- not counted: "{quote}": {reason}',
        '- no cuenta: "{quote}": {reason}',
    ),
    "evidence_theme": (
        "- {theme}: {count} of {total} participants ({people})",
        "- {theme}: {count} de {total} participantes ({people})",
    ),
    "evidence_interpretation": (
        "- {theme}: no verified quote; the model's interpretation",
        "- {theme}: ninguna cita verificada; interpretación del modelo",
    ),
    "evidence_coverage": (
        "Coverage: {used} of {total} sessions cited{cited}{left}",
        "Cobertura: {used} de {total} sesiones citadas{cited}{left}",
    ),
    "evidence_not_cited": ("; not cited: {codes}", "; sin citar: {codes}"),
    "evidence_counts": (
        "Counts (computed from the verified quotes):",
        "Recuentos (calculados a partir de las citas verificadas):",
    ),
    "work_doing_weighing_follow_up": ("reading your message", "se leía tu mensaje"),
    "follow_up_by_model": (
        "read as a follow-up by {provider}",
        "leído como continuación por {provider}",
    ),
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
    # -- the stakeholder report (report/, actions/report.py, projects report) ----------------
    "report_title": ("Project report: {name}", "Informe del proyecto: {name}"),
    "report_date": (
        "Prepared on {date} with design-agent.",
        "Preparado el {date} con design-agent.",
    ),
    "report_contents": ("Contents", "Índice"),
    "report_context": ("Project context", "Contexto del proyecto"),
    "report_decisions": ("Decisions", "Decisiones"),
    "report_answers": ("Answers", "Respuestas"),
    "report_answer_heading": (
        "{index}. {method} (turn {turn})",
        "{index}. {method} (turno {turn})",
    ),
    "report_description": ("Description", "Descripción"),
    "report_users": ("Users", "Usuarios"),
    "report_problem": ("Problem", "Problema"),
    "report_constraints": ("Constraints", "Restricciones"),
    "report_no_context": (
        "No users, problem or constraints recorded yet.",
        "Aún no hay usuarios, problema ni restricciones registrados.",
    ),
    "report_briefs": ("Briefs and files", "Briefs y archivos"),
    "report_no_briefs": ("No files added.", "No se ha añadido ningún archivo."),
    "report_type_brief": ("brief", "brief"),
    "report_type_research": ("research", "investigación"),
    "report_type_design": ("design", "diseño"),
    "report_type_other": ("other", "otro"),
    "report_no_decisions": ("No decisions recorded yet.", "Aún no hay decisiones registradas."),
    "report_why": ("Why", "Por qué"),
    "report_branch": ("branch '{name}', turn {number}", "rama '{name}', turno {number}"),
    "report_branch_unnamed": (
        "an unnamed branch, turn {number}",
        "una rama sin nombre, turno {number}",
    ),
    "report_every_branch": ("every branch", "todas las ramas"),
    "report_replaces": ("Replaces", "Sustituye a"),
    "report_no_answers": ("No answers yet.", "Aún no hay respuestas."),
    "report_persona": ("Specialist", "Especialista"),
    "report_method": ("Method", "Método"),
    "report_team_method": (
        "{method}, your team's own method",
        "{method}, método propio de tu equipo",
    ),
    "report_turn": ("Turn", "Turno"),
    "report_request": ("Request", "Petición"),
    "report_empty_answer": ("(empty answer)", "(respuesta vacía)"),
    "report_references": ("References", "Referencias"),
    "report_no_references": ("No sources cited.", "No cita fuentes."),
    "report_cite_guide": ("{title} guide, section {section}", "Guía «{title}», sección {section}"),
    "report_cite_file": ("{title}, section {section}", "{title}, sección {section}"),
    "report_sources": ("Bibliography", "Bibliografía"),
    "report_evidence": ("Evidence appendix", "Anexo de evidencia"),
    "report_evidence_answer": (
        "{method} (turn {turn}): the verified quotes behind each theme",
        "{method} (turno {turn}): las citas verificadas de cada tema",
    ),
    "report_evidence_theme": (
        "{theme}: {count} of {total} participants",
        "{theme}: {count} de {total} participantes",
    ),
    "report_evidence_interpretation": (
        "{theme}: no verified quote (the model's interpretation)",
        "{theme}: ninguna cita verificada (interpretación del modelo)",
    ),
    "report_evidence_removed": (
        "{count} quote(s) removed: not found in any session.",
        "{count} cita(s) eliminadas: no aparecen en ninguna sesión.",
    ),
    "report_no_sources": (
        "The answers cite no guide with a bibliography.",
        "Las respuestas no citan ninguna guía con bibliografía.",
    ),
    "report_page": ("Page {page} of {pages}", "Página {page} de {pages}"),
    "report_checklist": ("Checked", "Comprobado"),
    "report_check_outline": ("the outline's parts", "las partes del esquema"),
    "report_check_tables": ("the recomputed scores", "las puntuaciones recalculadas"),
    "report_check_totals": ("totals and averages", "totales y medias"),
    "report_check_percentages": ("the percentages", "los porcentajes"),
    "report_check_sample_size": ("the sample size", "el tamaño de la muestra"),
    "report_check_citations": ("the cited guide sections", "las secciones de guía citadas"),
    "report_check_limitations": ("the limitations", "las limitaciones"),
    "report_check_confidence": ("the stated confidence", "la confianza indicada"),
    "report_check_decisions": ("the project's decisions", "las decisiones del proyecto"),
    "report_no_checklist": ("No checklist stored.", "No hay lista de comprobación guardada."),
    "report_passed": ("passed", "cumplido"),
    "report_failed": ("failed", "no cumplido"),
    "report_not_assessed": ("not assessed", "sin evaluar"),
    "report_bad_turns": (
        "--turns takes turn numbers as 'history --tree' shows them, e.g. 2,6 (not '{turns}').",
        "--turns admite números de turno como los muestra 'history --tree', p. ej. 2,6 (no "
        "'{turns}').",
    ),
    "report_no_turn": (
        "There is no turn {number} in this project ('history --tree' shows the numbers).",
        "No hay turno {number} en este proyecto ('history --tree' muestra los números).",
    ),
    "report_no_answer": (
        "Turn {number} has no answer to put in the report; pick an answer's turn.",
        "El turno {number} no tiene respuesta para el informe; elige el turno de una respuesta.",
    ),
    "report_no_chromium": (
        "A PDF needs headless Chromium: install it (apt install chromium) or set "
        "DESIGN_AGENT_CHROMIUM, or use --format html and print that page to PDF.",
        "Un PDF necesita Chromium sin interfaz: instálalo (apt install chromium) o define "
        "DESIGN_AGENT_CHROMIUM, o usa --format html e imprime esa página en PDF.",
    ),
    "report_pdf_failed": (
        "{browser} did not produce a PDF; try --format html and print that page to PDF.",
        "{browser} no generó un PDF; prueba --format html e imprime esa página en PDF.",
    ),
    "report_cannot_write": (
        "Cannot write {path}: {reason}",
        "No se puede escribir {path}: {reason}",
    ),
    "report_no_free_name": (
        "{folder} already has {stem} and 999 numbered copies; pass -o FILE.",
        "{folder} ya tiene {stem} y 999 copias numeradas; usa -o ARCHIVO.",
    ),
    "report_written": (
        "Report of '{name}' written to {path} (answers: {answers}; decisions: {decisions}).",
        "Informe de '{name}' guardado en {path} (respuestas: {answers}; decisiones: {decisions}).",
    ),
    "report_ready": (
        "The report of '{name}' is ready ({format}; answers: {answers}; decisions: {decisions}).",
        "El informe de '{name}' está listo ({format}; respuestas: {answers}; "
        "decisiones: {decisions}).",
    ),
    # -- login probes and the provider fallback chain (providers/login.py, fallback.py) -------
    "fallback_moved": (
        "{source} {why}: answering with {target} instead (providers.fallback).",
        "{source} {why}: respondo con {target} en su lugar (providers.fallback).",
    ),
    "fallback_why_not_installed": ("is not installed", "no está instalado"),
    "fallback_why_not_logged_in": ("is not logged in", "no tiene la sesión iniciada"),
    "fallback_why_rate_limited": ("is rate-limited", "tiene el límite de peticiones agotado"),
    "fallback_why_quota_exhausted": ("is out of quota", "agotó su cuota"),
    "fallback_all_failed": (
        "No provider of the fallback chain could answer ({tried}). The last error: {message}",
        "Ningún proveedor de la cadena de respaldo pudo responder ({tried}). El último error: "
        "{message}",
    ),
    "login_logged_out": (
        "{name} is not logged in ({detail}). {hint}",
        "{name} no tiene la sesión iniciada ({detail}). {hint}",
    ),
    "login_use_warning": (
        "note: {name} is not logged in ({detail}); kept as the provider. To log in: {hint}",
        "nota: {name} no tiene la sesión iniciada ({detail}); queda como proveedor. Para "
        "iniciarla: {hint}",
    ),
    "login_column": ("login", "sesión"),
    # -- usage and the cost budget (memory/usage.py, usage_view.py, budget.py, /usage) -------
    "usage_title": (
        "Usage of {scope}, by {by}{since}:",
        "Uso en {scope}, por {by}{since}:",
    ),
    "usage_since": (" since {date} UTC", " desde el {date} UTC"),
    "usage_scope_project": ("project '{name}'", "el proyecto '{name}'"),
    "usage_scope_all": ("all projects", "todos los proyectos"),
    "usage_none": (
        "No answers yet in {scope}: usage counts the answers of AI CLIs and the offline one.",
        "Aún no hay respuestas en {scope}: el uso cuenta las respuestas de las CLI de IA y la "
        "offline.",
    ),
    "usage_by_day": ("day", "día"),
    "usage_by_provider": ("provider", "proveedor"),
    "usage_by_model": ("model", "modelo"),
    "usage_by_project": ("project", "proyecto"),
    "usage_col_group": ("group", "grupo"),
    "usage_col_turns": ("turns", "turnos"),
    "usage_col_in": ("tokens in", "tokens de entrada"),
    "usage_col_out": ("tokens out", "tokens de salida"),
    "usage_col_cost": ("cost", "coste"),
    "usage_col_first": ("p50 first token", "p50 primer token"),
    "usage_col_total": ("p50 total", "p50 total"),
    "usage_total": ("total", "total"),
    "usage_not_reported": ("not reported", "no informado"),
    "usage_partly": (
        "{value} ({reported} of {turns} turns reported)",
        "{value} ({reported} de {turns} turnos informados)",
    ),
    "usage_doctor": (
        "used: {turns} turns, {tokens} tokens, {cost} (this month)",
        "uso: {turns} turnos, {tokens} tokens, {cost} (este mes)",
    ),
    "usage_doctor_none": ("used: no answers this month", "uso: ninguna respuesta este mes"),
    "usage_bad_since": (
        "--since takes a date (YYYY-MM-DD) or a number of days (7d, 30d), not '{value}'",
        "--since admite una fecha (AAAA-MM-DD) o un número de días (7d, 30d), no '{value}'",
    ),
    "usage_project_and_all": (
        "give --project NAME or --all, not both",
        "indica --project NOMBRE o --all, no ambos",
    ),
    "budget_warning": (
        "Budget: '{name}' has spent {spent} of its {budget} monthly budget ({percent}%).",
        "Presupuesto: '{name}' lleva gastado {spent} de su presupuesto mensual de {budget} "
        "({percent}%).",
    ),
    "budget_question": (
        "'{name}' has spent {spent} of its {budget} budget this month ({percent}%). Send this "
        "request anyway? (yes / no)",
        "'{name}' ha gastado {spent} de su presupuesto de {budget} este mes ({percent}%). "
        "¿Envío la petición de todos modos? (sí / no)",
    ),
    "budget_going_on": (
        "Sending it over budget, as you said.",
        "La envío por encima del presupuesto, como dices.",
    ),
    "budget_declined": (
        "Not sent: nothing ran. To raise the budget: design-agent config set budget.monthly_usd "
        "AMOUNT (none turns it off).",
        "No enviada: no se ha ejecutado nada. Para subir el presupuesto: design-agent config "
        "set budget.monthly_usd CANTIDAD (none lo desactiva).",
    ),
    "budget_ask_held": (
        "'{name}' has spent {spent} of its {budget} monthly budget, so nothing was sent. "
        "Send it anyway with 'design-agent ask --over-budget MESSAGE' (or answer "
        "'design-agent ask yes'), or raise the budget: design-agent config set "
        "budget.monthly_usd AMOUNT",
        "'{name}' ha gastado {spent} de su presupuesto mensual de {budget}, así que no se ha "
        "enviado nada. Envíala de todos modos con 'design-agent ask --over-budget MENSAJE' (o "
        "responde 'design-agent ask sí'), o sube el presupuesto: design-agent config set "
        "budget.monthly_usd CANTIDAD",
    ),
    # -- the server: serve and server status|stop|logs ---------------------------------------
    "server_stop_hint": (
        "Open that URL in your browser. Press Ctrl-C to stop the server.",
        "Abre esa URL en el navegador. Pulsa Ctrl-C para detener el servidor.",
    ),
    "server_remote_warning": (
        "Warning: listening on {host}: other computers can reach this server; only the "
        "token keeps them out.",
        "Aviso: escuchando en {host}: otros ordenadores pueden llegar a este servidor; solo "
        "el token los deja fuera.",
    ),
    "server_already_running": (
        "A server for this home is already running: see design-agent server status.",
        "Ya hay un servidor para este directorio: mira design-agent server status.",
    ),
    "server_not_started": (
        "The server did not start within 10 s; see {log}",
        "El servidor no ha arrancado en 10 s; mira {log}",
    ),
    "server_not_running": (
        "No server is running for this home. Start one: design-agent serve",
        "No hay ningún servidor para este directorio. Arranca uno: design-agent serve",
    ),
    "server_running": (
        "Server running: pid {pid}, port {port}, {url}",
        "Servidor en marcha: pid {pid}, puerto {port}, {url}",
    ),
    "server_stopped": (
        "Server stopped (pid {pid}).",
        "Servidor detenido (pid {pid}).",
    ),
    "server_no_log": (
        "No server log yet ({path}); `design-agent serve --detach` writes it.",
        "Aún no hay registro del servidor ({path}); lo escribe `design-agent serve --detach`.",
    ),
    # -- ask through a running server (remote_ask.py) ----------------------------------------
    "ask_server_gone": (
        "the server stopped before the answer ended; 'design-agent history' shows what was "
        "saved, and 'design-agent ask --no-server' runs a turn without it",
        "el servidor se detuvo antes de terminar la respuesta; 'design-agent history' muestra "
        "lo guardado y 'design-agent ask --no-server' hace un turno sin él",
    ),
    # -- a team's own methods: what was left out of the catalogue (registry.py) -------------
    "left_out_task": (
        "Warning: your method '{name}' is left out, the rest works: {where}: {reason}{more}",
        "Aviso: tu método '{name}' queda fuera, el resto funciona: {where}: {reason}{more}",
    ),
    "left_out_agent": (
        "Warning: your persona '{name}' is left out, the rest works: {where}: {reason}{more}",
        "Aviso: tu especialista '{name}' queda fuera, el resto funciona: {where}: {reason}{more}",
    ),
    "left_out_file": (
        "Warning: {name} is left out, the rest works: {where}: {reason}{more}",
        "Aviso: {name} queda fuera, el resto funciona: {where}: {reason}{more}",
    ),
    "left_out_key": (
        "Warning: the key '{name}' is left out, the rest works: {where}: {reason}{more}",
        "Aviso: la clave '{name}' queda fuera, el resto funciona: {where}: {reason}{more}",
    ),
    "left_out_also": (
        " (and {count} more problem(s): design-agent check lists them)",
        " (y {count} problema(s) más: design-agent check los muestra)",
    ),
    "left_out_more": (
        "Warning: {count} more part(s) of your catalogue files are left out; "
        "'design-agent check' lists them all.",
        "Aviso: {count} parte(s) más de tus archivos del catálogo quedan fuera; "
        "'design-agent check' las muestra todas.",
    ),
    # -- a team's own methods: adding one, guided (cli/methods.py, actions/method_draft.py) --
    "method_intro": (
        "A method of your team's own: a few questions, then design-agent writes its entry in "
        "{path} and a guide for you to fill in (nothing is written until the end).",
        "Un método propio de tu equipo: unas preguntas, y design-agent escribe su entrada en "
        "{path} y una guía para que la completes (no se escribe nada hasta el final).",
    ),
    "method_intro_about": (
        "A method of your team's own for {about}: a few questions, then design-agent writes "
        "its entry and a guide for you to fill in ('cancel' stops, nothing written).",
        "Un método propio de tu equipo para {about}: unas preguntas, y design-agent escribe "
        "su entrada y una guía para que la completes ('cancela' lo detiene sin escribir nada).",
    ),
    "method_q_name": (
        "What is it called, in English? (e.g. Pricing page review)",
        "¿Cómo se llama, en inglés? (p. ej. Pricing page review)",
    ),
    "method_q_name_es": (
        "And in Spanish? (e.g. Revisión de página de precios; 'skip' to leave it out)",
        "¿Y en español? (p. ej. Revisión de página de precios; 'saltar' para dejarlo)",
    ),
    "method_q_name_es_cli": (
        "Its name in Spanish (Enter to leave it out)",
        "Su nombre en español (Intro para dejarlo)",
    ),
    "method_q_description": (
        "What is it for, in one sentence?",
        "¿Para qué sirve, en una frase?",
    ),
    "method_q_agent": (
        "Which specialist answers it?\n{options}\n(a number or an id{suggested})",
        "¿Qué especialista lo responde?\n{options}\n(un número o un id{suggested})",
    ),
    "method_suggested": ("; {number} fits it best", "; el {number} es el que mejor encaja"),
    "method_q_outputs": (
        "What are the parts of its deliverable? Separate them with commas (e.g. Findings "
        "by severity, Recommendations)",
        "¿Qué partes tiene su entregable? Sepáralas con comas (p. ej. Hallazgos por "
        "gravedad, Recomendaciones)",
    ),
    "method_q_length": (
        "How long is the deliverable usually? 1. short  2. medium  3. long",
        "¿Qué extensión suele tener el entregable? 1. corto  2. medio  3. largo",
    ),
    "method_q_keywords": (
        "Other words people use to ask for it, separated by commas (Enter to skip)",
        "Otras palabras con las que lo piden, separadas por comas (Intro para saltar)",
    ),
    "method_q_spanish": (
        "Write its Spanish guide too ({path})? (yes/no)",
        "¿Escribo también su guía en español ({path})? (sí/no)",
    ),
    "method_q_description_es": (
        "What is it for, in Spanish? (Enter to leave it for later)",
        "¿Para qué sirve, en español? (Intro para dejarlo para luego)",
    ),
    "method_q_outputs_es": (
        "The deliverable's parts in Spanish, separated by commas (Enter: as in English)",
        "Las partes del entregable en español, separadas por comas (Intro: como en inglés)",
    ),
    "method_q_confirm": ("Write '{id}' now?", "¿Lo escribo ya ('{id}')?"),
    "method_bad_agent": (
        "'{answer}' is none of them: give a number from 1 to {count}, or an id.",
        "'{answer}' no es ninguno: da un número del 1 al {count}, o un id.",
    ),
    "method_bad_length": (
        "Say short, medium or long (or 1, 2, 3).",
        "Di corto, medio o largo (o 1, 2, 3).",
    ),
    "method_needed": (
        "This one is needed: {question}",
        "Esto hace falta: {question}",
    ),
    "method_taken": (
        "There is a method called '{id}' already; give yours another name ('design-agent "
        "methods edit {id}' changes it if it is yours).",
        "Ya hay un método llamado '{id}'; dale otro nombre al tuyo ('design-agent methods "
        "edit {id}' lo cambia si es tuyo).",
    ),
    "method_yes_no": ("Yes or no?", "¿Sí o no?"),
    "export_team_methods": (
        "Note: this project used your team's own method(s) {ids}; a home that imports it "
        "needs them too (copy {home}/config/tasks.yaml and knowledge/guides, or add them "
        "there with design-agent methods new).",
        "Nota: este proyecto ha usado método(s) propio(s) de tu equipo: {ids}; el directorio "
        "que lo importe también los necesita (copia {home}/config/tasks.yaml y "
        "knowledge/guides, o añádelos allí con design-agent methods new).",
    ),
    "import_missing_methods": (
        "Warning: {file}: this project used the method(s) {ids}, which this home does not "
        "have (a team's own, most likely); its answers are imported as they were, but to "
        "ask for them again add them here (design-agent methods new, or copy the team's "
        "config/tasks.yaml entry and guide).",
        "Aviso: {file}: este proyecto ha usado método(s) que este directorio no tiene: "
        "{ids} (propios de un equipo, seguramente); sus respuestas se importan tal cual, "
        "pero para volver a pedirlos añádelos aquí (design-agent methods new, o copia la "
        "entrada de config/tasks.yaml y la guía del equipo).",
    ),
    "method_nothing_written": ("Nothing was written.", "No se ha escrito nada."),
    "method_written": ("Wrote your method '{id}':", "He escrito tu método '{id}':"),
    "method_replaces": (
        "It takes the place of the bundled method of the same id.",
        "Ocupa el lugar del método incluido con el mismo id.",
    ),
    "method_file_entry": ("  {where}  its entry", "  {where}  su entrada"),
    "method_file_guide": (
        "  {where}  its guide: replace the [bracketed] parts with your team's way",
        "  {where}  su guía: cambia las partes [entre corchetes] por lo que hace tu equipo",
    ),
    "method_file_own_guide": ("  {where}  its guide (yours)", "  {where}  su guía (la tuya)"),
    "method_file_companion": (
        "  {where}  its Spanish guide",
        "  {where}  su guía en español",
    ),
    "method_check_ok": ("check: no problems with it.", "check: ningún problema con él."),
    "method_check_elsewhere": (
        "check: {count} problem(s) elsewhere in your files: design-agent check lists them.",
        "check: {count} problema(s) en otras partes de tus archivos: design-agent check los "
        "muestra.",
    ),
    "method_check_problems": (
        "check: {count} problem(s) with it, in plain words:",
        "check: {count} problema(s) con él, en palabras claras:",
    ),
    "method_check_warnings": ("check warns:", "check avisa:"),
    "method_routes": (
        "How three sample requests are routed:",
        "Cómo se enrutan tres peticiones de ejemplo:",
    ),
    "method_route_ours": (
        '  ok  "{text}" -> {task} ({score}, {band})',
        '  ok  "{text}" -> {task} ({score}, {band})',
    ),
    "method_route_other": (
        '  no  "{text}" -> {task} ({score}, {band}): add its words to the keywords '
        "(design-agent methods edit {id})",
        '  no  "{text}" -> {task} ({score}, {band}): añade sus palabras a las keywords '
        "(design-agent methods edit {id})",
    ),
    "method_route_none": (
        '  no  "{text}" -> no method: add its words to the keywords (design-agent methods '
        "edit {id})",
        '  no  "{text}" -> ningún método: añade sus palabras a las keywords (design-agent '
        "methods edit {id})",
    ),
    "method_next": (
        'Next: fill in its guide (design-agent methods edit {id}), then ask for it: "{sample}"',
        'Ahora: completa su guía (design-agent methods edit {id}) y pídelo: "{sample}"',
    ),
    "method_removed": (
        "Removed your method '{id}' from {path}{guides}.",
        "He quitado tu método '{id}' de {path}{guides}.",
    ),
    "method_removed_guides": (" and its guide(s) {names}", " y su(s) guía(s) {names}"),
    "method_bundled_back": (
        "The bundled method '{id}' answers again.",
        "Vuelve a responder el método incluido '{id}'.",
    ),
    "method_remove_confirm": (
        "Remove your method '{id}' ({where}){guides}?",
        "¿Quito tu método '{id}' ({where}){guides}?",
    ),
    "method_remove_guides": (" and delete {names}", " y borro {names}"),
    "method_edited": (
        "After your edit, {count} problem(s) with '{id}':",
        "Tras tu edición, {count} problema(s) con '{id}':",
    ),
    "method_edited_ok": ("'{id}' checks out.", "'{id}' está bien."),
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
