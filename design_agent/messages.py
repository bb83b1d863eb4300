"""What design-agent says about projects, providers, files and memory, in English and Spanish."""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, tuple[str, str]] = {
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
    "project_line": (
        "{mark} {name} ({turns} turns, {decisions} decisions)",
        "{mark} {name} ({turns} turnos, {decisions} decisiones)",
    ),
    "confirm_delete": (
        "Delete project '{name}'? This removes {turns} turns, {files} files and {decisions} "
        "decisions and cannot be undone. Type 'yes' to delete it.",
        "¿Borrar el proyecto '{name}'? Se eliminarán {turns} turnos, {files} archivos y "
        "{decisions} decisiones, sin posibilidad de deshacerlo. Escribe 'sí' para borrarlo.",
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
        "Added {filename} as a {file_type} ({chars} characters). I'll use it as project "
        "context.{preview}",
        "He añadido {filename} como {file_type} ({chars} caracteres). Lo usaré como contexto "
        "del proyecto.{preview}",
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
