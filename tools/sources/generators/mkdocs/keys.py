"""The key names of pymdownx.keys (`++ctrl+alt+del++`) and the text the built page shows for each.

pymdownx.keys turns `++key+key++` into `<kbd>` elements only when every key is in its keymap
(its English US `keymap_db`, plus the site's `key_map`); otherwise the text stays as written.
The reader needs the same table to tell the two apart, and pymdownx is not a dependency of
this package, so the table is copied here: the canonical names, the aliases that stand for
them, and each name's label (the name's words capitalised, unless listed in `_NAMED`).

Copied from pymdown-extensions' `pymdownx/keymap_db.py` (MIT licence, copyright Isaac Muse).
"""

from __future__ import annotations

_TITLED = (
    "0 1 2 3 4 5 6 7 8 9 a b c d e f g h i j k l m n o p q r s t u v w x y z space page-up "
    "page-down home end backspace tab break caps-lock clear eject enter help print-screen "
    "scroll-lock num-clear num-lock num-enter alt left-alt left-command left-meta left-option "
    "left-shift left-super meta option right-alt right-command right-meta right-option "
    "right-shift right-super shift super f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 f13 f14 f15 f16 "
    "f17 f18 f19 f20 f21 f22 f23 f24 browser-back browser-favorites browser-forward "
    "browser-home browser-refresh browser-search browser-stop copy mail media print reset "
    "select sleep volume-down volume-up zoom power fingerprint left-button middle-button "
    "right-button "
).split()
_NAMED = {
    "backslash": "\\",
    "bar": "|",
    "brace-left": "{",
    "brace-right": "}",
    "bracket-left": "[",
    "bracket-right": "]",
    "colon": ":",
    "comma": ",",
    "double-quote": '"',
    "equal": "=",
    "exclam": "!",
    "grave": "`",
    "greater": ">",
    "less": "<",
    "minus": "-",
    "period": ".",
    "plus": "+",
    "question": "?",
    "semicolon": ";",
    "single-quote": "'",
    "slash": "/",
    "tilde": "~",
    "underscore": "_",
    "arrow-up": "Up",
    "arrow-down": "Down",
    "arrow-left": "Left",
    "arrow-right": "Right",
    "delete": "Del",
    "insert": "Ins",
    "escape": "Esc",
    "num0": "Num 0",
    "num1": "Num 1",
    "num2": "Num 2",
    "num3": "Num 3",
    "num4": "Num 4",
    "num5": "Num 5",
    "num6": "Num 6",
    "num7": "Num 7",
    "num8": "Num 8",
    "num9": "Num 9",
    "num-asterisk": "Num *",
    "num-delete": "Num Del",
    "num-equal": "Num =",
    "num-minus": "Num -",
    "num-plus": "Num +",
    "num-separator": "Num .",
    "num-slash": "Num /",
    "alt-graph": "AltGr",
    "command": "Cmd",
    "control": "Ctrl",
    "function": "Fn",
    "left-control": "Left Ctrl",
    "left-windows": "Left Win",
    "right-control": "Right Ctrl",
    "right-windows": "Right Win",
    "windows": "Win",
    "backtab": "Back Tab",
    "context-menu": "Menu",
    "media-next-track": "Next Track",
    "media-pause": "Pause",
    "media-play": "Play",
    "media-play-pause": "Play/Pause",
    "media-prev-track": "Previous Track",
    "media-stop": "Stop",
    "volume-mute": "Mute",
    "x-button1": "X Button 1",
    "x-button2": "X Button 2",
}
_ALIASES = (
    "add=num-plus altgr=alt-graph apps=context-menu back=backspace bksp=backspace bktab=backtab "
    "cancel=break capital=caps-lock close-brace=brace-right close-bracket=bracket-right "
    "clr=clear cmd=command cplk=caps-lock ctrl=control dblquote=double-quote "
    "decimal=num-separator del=delete divide=num-slash down=arrow-down esc=escape return=enter "
    "exclamation=exclam favorites=browser-favorites fn=function forward=browser-forward "
    "grave-accent=grave greater-than=greater gt=greater hyphen=minus ins=insert lalt=left-alt "
    "launch-mail=mail launch-media=media lbutton=left-button lcmd=left-command "
    "lcommand=left-command lcontrol=left-control lctrl=left-control left=arrow-left "
    "left-cmd=left-command left-ctrl=left-control lopt=left-option loption=left-option "
    "left-opt=left-option left-win=left-windows less-than=less lmeta=left-meta "
    "lshift=left-shift lsuper=left-super lt=less lwin=left-windows lwindows=left-windows "
    "mbutton=middle-button menu=context-menu multiply=num-asterisk mute=volume-mute "
    "next=page-down next-track=media-next-track num-del=num-delete numlk=num-lock "
    "open-brace=brace-left open-bracket=bracket-left opt=option page-dn=page-down "
    "page-up=page-up pause=media-pause pg-dn=page-down pg-up=page-up pipe=bar play=media-play "
    "play-pause=media-play-pause prev-track=media-prev-track prior=page-up prtsc=print-screen "
    "question-mark=question ralt=right-alt rbutton=right-button rcontrol=right-control "
    "rcmd=right-command rcommand=right-command rctrl=right-control refresh=browser-refresh "
    "right=arrow-right right-cmd=right-command right-ctrl=right-control right-meta=right-meta "
    "right-opt=right-option right-win=right-windows rmeta=right-meta ropt=right-option "
    "roption=right-option rshift=right-shift rsuper=right-super rwin=right-windows "
    "rwindows=right-windows scroll=scroll-lock search=browser-search separator=num-separator "
    "spc=space stop=media-stop subtract=num-minus tabulator=tab up=arrow-up "
    "vol-down=volume-down vol-mute=volume-mute vol-up=volume-up win=windows xbutton1=x-button1 "
    "xbutton2=x-button2 "
).split()

KEY_LABELS: dict[str, str] = {
    **{name: " ".join(w.capitalize() for w in name.split("-")) for name in _TITLED},
    **_NAMED,
}
KEY_ALIASES: dict[str, str] = dict(pair.split("=", 1) for pair in _ALIASES)
