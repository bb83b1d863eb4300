"""The words each group of intents.py's patterns can start with, so that a message
starting otherwise is never read against them (nor are they compiled for it).

Each group is a necessary condition, not a list of triggers: every text its patterns
match, from where they are tried, starts with one of its entries (a first word with
its space, or the start of a word). tests/test_intent_patterns.py proves it from each
pattern; when a pattern changes and that test fails, add the first words it names.
"""

from __future__ import annotations


def _starts(alternatives: str) -> tuple[str, ...]:
    return tuple(alternatives.split("|"))


# "how do I create a project?"
HOW_TO = _starts("can |como |how |is |podemos |puedo |se ")

# "make it shorter"
BRIEF = _starts(
    "a |abrevia|acorta|breve|brief|cliff |compress|concis|condens|cort|cut|dame |dejalo |"
    "demasiado |dimelo |do |en |es |escribelo |eso |esta |esto |even |far |fewer |give |"
    "haz |hazl|hazme|in |it |its |just |keep |kind|less |lo |make |mas |me |menos |more |"
    "much |muy |ponlo |put |que |quedo |quick |quiero |recorta|redo |respuesta |resum|"
    "rewrite |say |short|sinteti|summar|super |that|the |this |tighte|tl |tldr|too |trim|"
    "un |una |version |way |write "
)

# "more detail"
DETAILED = _starts(
    "a |add |algo |amplia|anade |bastante |con |cuentame |dame |dejalo |demasiado |"
    "desarrolla|deta|develop|dig |dime|do |elabora|en |es |escribelo |eso |esta |esto |"
    "even |expand|expl|extiende|far |full |give |go |haz |hazl|hazme|i |in |it |its |"
    "kind|lo |long|make |mas|me |more|much|muy |necesito |need |pon |ponlo |ponme |"
    "profundiza|put |que |quedo |quiero |redo |respuesta |rewrite |say |some |super |"
    "tell |that|the |this |too |un |una |version |way |with |write "
)

# "go offline"
OFFLINE = _starts(
    "al |answer |back |cambia |carry |change |cont|don |el |en |go |i |in |la |let |"
    "modo |no |offline|pasa |prefiero |quiero |reply |respond|run |sigue |sin |stay |"
    "switch |the |trabaj|usa |use |vuelve |without |work "
)

# "switch to gemini" (and its typos)
PROVIDER_VERB = _starts(
    "answer |back |cambi|can |change |contesta |could |go |i |let |lets |move |pasa|"
    "pasemos |pon |pref|probemos |prueba |quiero |regres|reply |respond|run |set |sigue |"
    "stick |switch |trabaja |try |usa |usar |use |usemos |utili|volvamos |vuelve |we |"
    "work "
)

# "delete the Acme project"
DELETE = _starts("borr|delete |destroy |drop |elimin|erase |get |quita|remove |suprim|trash ")

# "rename this project to Atlas"
RENAME = _starts(
    "call |cambia|change |let's |lets |llam|ponle |rename |renombr|set |update |we'll "
)

# "switch to Ledgerly"
SWITCH = _starts(
    "abre |abrir |back |cambi|carga|change |continu|flip |get |go |head |ir |jump |"
    "let's |lets |load |move |open |pasa|pasemos |regres|reopen |resume |retom|return |"
    "seguimos |sigamos |swap |switch |trabajemos |vamos |ve |vete |volv|vuelve |work "
)

# "show the last 5 turns"
HISTORY = _starts(
    "abre |chat |check |conversation |dame |de |display |donde |el |en |ensename |get |"
    "give |histor|las |last |latest |lee |list |los |message |mira |muestra|my |open |"
    "our |previous |print |que |read |repeat |repite |see |show |sobre |the |ultim|ver |"
    "view |what |where "
)

# "what have we decided?"
DECISIONS = _starts(
    "all |cuales |dame |decision|dime |display |ensename |get |give |las |lee |list|"
    "mira |mis |muestra|my |nuestras |our |print |que |read |recap |recorded |"
    "recuerdame |registro |repasa |resume |see |show |summari|tell |the |ver |view |"
    "what |which "
)

# "why did we choose moderated testing?"
RECALL = _starts(
    "can |cual|dime |do |me |por |porque |que |recuerda|remind |sabes |tell |what |why "
)

# "we decided to ..."
RECORD = _starts(
    "acord|add |agrega |anade |anota|apunta|btw |btw, |btw: |by |capture |deci|document|"
    "el |entonces|everyone|final |fyi |fyi, |fyi: |graba |guarda|habiamos |he |hemos |i |"
    "i'd |i'm |i've |iremos |la |let |let's |lets |log |mi |my |nos |nota|note|nuestra |"
    "optamos |our |record |recuerda |regist|remember |save |se |so |so, |so: |store |"
    "the |toma |track |update|vamos |we |we'd |we'll |we're |we've |write |ya "
)

# "did I solve something similar before?"
SEARCH = _starts(
    "busca|de |did |encuentra |find |habiamos |hablamos |had |have |he |hemos |hice|"
    "hicimos|look |que |resolvi|search |trabaj|tuvimos|vimos|what |ya "
)

# "what methods do you know?"
CATALOGUE = _starts(
    "activi|all |available |catalogo |cuales |dame |deliverables|design |dime |dinamicas|"
    "ejercicios|ensename |entregables|exercises|frameworks|give |las |list|los |method|"
    "metodo|muestra|open |plantillas|que |research |see |show |talleres|tareas|task|"
    "technique|tecnicas|tell |templates|the |tus |ux |ver |what |which |workshops|your "
)

# "go back to turn 3"
BACK = _starts(
    "can |get |go |jump |let |lets |please |regres|rewind |roll |step |take |vamos |volv|vuelve "
)

# "how much have I spent?"
USAGE = _starts(
    "check |consumo |cuanto |dame |display |el |ensename |gasto |get |give |how |mi |"
    "mira |muestra|my |our |print |see |show |spending|the |token |usage|uso |ver |view |"
    "what "
)
