"""The MCP server: the SDK's low-level Server with design-agent's tools, resources and
prompts, the same for stdio (stdio.py) and streamable HTTP (http.py).

Every request runs in a worker thread with a Call (its own database connection, the
shared catalogue), so a slow database never blocks the transport. Errors are converted
here, once: a DesignAgentError (or a full disk, a damaged database) becomes an MCP tool
error whose text is the one line a command would print; resources and prompts answer it
as a protocol error with the same message.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from design_agent import __version__
from design_agent.core.errors import DesignAgentError, NotFoundError
from design_agent.mcp import prompts, resources
from design_agent.mcp.access import Caller
from design_agent.mcp.call import Call
from design_agent.mcp.tools import Tool, run_tool, tools
from design_agent.memory.faults import storage_error

if TYPE_CHECKING:
    from design_agent.turn.session import SharedServices

log = logging.getLogger("design_agent.mcp")
NAME = "design-agent"
INSTRUCTIONS = (
    "design-agent knows 90+ product-design methods with senior-grade guides, and keeps the "
    "project's facts and decisions. For a design deliverable: find_method, then "
    "method_brief, write it by the brief, review_answer the draft; record_decision when the "
    "person decides something, with why; project_context before planning."
)
Result = TypeVar("Result")


def build_server(shared: SharedServices, caller: Caller) -> Server[Any]:
    """A server over `shared`'s home for `caller` (who will be checked, access.py)."""

    async def in_call(work: Callable[[Call], Result]) -> Result:
        return await anyio.to_thread.run_sync(_run, shared, caller, work)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_described(t) for t in tools().values()])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name, arguments = params.name, dict(params.arguments or {})
        try:
            result = await in_call(lambda call: run_tool(name, arguments, call))
        except DesignAgentError as e:
            return _tool_error(e.message)
        text = types.TextContent(type="text", text=result.as_text())
        structured = result.model_dump(mode="json")
        return types.CallToolResult(content=[text], structured_content=structured)

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        cursor = getattr(params, "cursor", None) if params is not None else None
        found, after = await _protocol(in_call(lambda call: resources.page(call, cursor)))
        listed = [
            types.Resource(uri=r.uri, name=r.name, title=r.title, mime_type=r.mime_type)
            for r in found
        ]
        return types.ListResourcesResult(resources=listed, next_cursor=after)

    async def list_templates(ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        templates = [
            types.ResourceTemplate(uri_template=uri, name=uri, description=text, mime_type=mime)
            for uri, text, mime in resources.TEMPLATES
        ]
        return types.ListResourceTemplatesResult(resource_templates=templates)

    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        text, mime = await _protocol(in_call(lambda call: resources.read(call, uri)))
        contents = types.TextResourceContents(uri=uri, text=text, mime_type=mime)
        return types.ReadResourceResult(contents=[contents])

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        found = await _protocol(in_call(prompts.listing))
        arguments = [
            types.PromptArgument(name=name, description=text, required=False)
            for name, text in prompts.ARGUMENTS
        ]
        listed = [
            types.Prompt(name=p.name, title=p.title, description=p.description, arguments=arguments)
            for p in found
        ]
        return types.ListPromptsResult(prompts=listed)

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        name, arguments = params.name, dict(params.arguments or {})
        title, text = await _protocol(in_call(lambda call: prompts.render(call, name, arguments)))
        content = types.TextContent(type="text", text=text)
        message = types.PromptMessage(role="user", content=content)
        return types.GetPromptResult(description=title, messages=[message])

    return Server(
        NAME,
        version=__version__,
        title="design-agent",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


def _run(shared: SharedServices, caller: Caller, work: Callable[[Call], Result]) -> Result:
    """`work` with a fresh Call, closed after; a database failure said as what it means."""
    call = Call(shared, caller)
    try:
        return work(call)
    except DesignAgentError:
        raise
    except Exception as e:
        known = storage_error(e, shared.home.database_file)  # a full disk, a damaged file
        if known is not None:
            raise known from e
        log.exception("unexpected error in an MCP request")
        raise DesignAgentError(f"unexpected {type(e).__name__}: {e}") from e
    finally:
        call.close()


async def _protocol(pending: Awaitable[Result]) -> Result:
    """A resource or prompt request's result; its DesignAgentError as a protocol error."""
    try:
        return await pending
    except DesignAgentError as e:
        code = types.INVALID_PARAMS if isinstance(e, NotFoundError) else types.INTERNAL_ERROR
        raise MCPError(code=code, message=e.message) from e


def _tool_error(message: str) -> types.CallToolResult:
    content = types.TextContent(type="text", text=message)
    return types.CallToolResult(content=[content], is_error=True)


def _described(tool: Tool) -> types.Tool:
    """A tool as tools/list shows it: its schemas from its pydantic models."""
    return types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=tool.input.model_json_schema(),
        output_schema=tool.output.model_json_schema(mode="serialization"),
        annotations=types.ToolAnnotations(
            read_only_hint=tool.access == "read",
            destructive_hint=False,
            open_world_hint=False,
        ),
    )
