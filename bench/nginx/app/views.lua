-- The text of template number n: thousands of distinct templates built
-- from a few blocks (what a site with many pages and partials has).
local format = string.format

local _M = {}

local blocks = {
  [[<h1>{{context.title}}</h1>
<p class="lead">{{context.lead}}</p>
]],
  [[<ul class="items-@N@">
{% for i, item in ipairs(context.items) do %}
  <li id="i{{item.id}}"><a href="/item/{{item.id}}">{{item.name}}</a> {*string.format("%.2f", item.price)*}</li>
{% end %}
</ul>
]],
  [[{% if context.user then %}<p>Hello, {{context.user.name}} ({{context.user.email}})</p>{% else %}<p><a href="/login">log in</a></p>{% end %}
]],
  [[<table class="t@N@">
{% for r = 1, #context.rows do local row = context.rows[r] %}
<tr>{% for c = 1, #row do %}<td>{{row[c]}}</td>{% end %}</tr>
{% end %}
</table>
]],
  [[<nav>{% for _, l in ipairs(context.links) do %}<a href="{{l.href}}">{{l.text}}</a> | {% end %}</nav>
]],
  [[<div class="tags">{% local n = 0 for _, t in ipairs(context.tags) do n = n + #t %}<span>{{t:upper()}}</span>{% end %} ({{n}} chars)</div>
]],
  [[<p>{{context.count}} results, page {{context.page}} of {*math.ceil(context.count / @N@)*}</p>
]],
  [[<footer>{{os.date("!%Y", 0)}} &middot; {{context.title:lower():gsub("%s+", "-")}} &middot; v@N@</footer>
]],
}

function _M.text(n)
  local parts = { format("<!-- template %d -->\n", n) }
  local k = #blocks
  -- 3 to 5 blocks, chosen and ordered by n
  local count = 3 + n % 3
  for j = 1, count do
    local b = blocks[(n * 7 + j * (n % 5 + 1)) % k + 1]
    parts[#parts + 1] = (b:gsub("@N@", tostring(n % 97 + j)))
  end
  return table.concat(parts)
end

return _M
